import type { PlanFlag, PlanFlags } from "../plans/plan";
import { can, type Permission, type Profile } from "../permissions/permissions";

/** The side menu of spec 1 section 2, with who may see each entry. */
export type MenuItem = {
  key: string;
  path: string;
  adminOnly?: boolean;
  /** shown to whoever has this permission (admins and supervisors; docs/adr/0101) */
  permission?: Permission;
  superOnly?: boolean;
  planFlag?: PlanFlag;
  /** campaigns also need the company setting campaignsEnabled = true */
  needsCampaignsEnabled?: boolean;
};

export const MENU_ITEMS: readonly MenuItem[] = [
  { key: "dashboard", path: "/", permission: "dashboard:view" },
  // issue 34: the supervisors' cockpit (queues and agents, live)
  { key: "supervisor", path: "/supervisor", permission: "supervisor:cockpit" },
  { key: "tickets", path: "/tickets" },
  { key: "quickMessages", path: "/quick-messages" },
  { key: "kanban", path: "/kanban", planFlag: "useKanban" },
  { key: "todolist", path: "/todolist" },
  { key: "contacts", path: "/contacts" },
  { key: "schedules", path: "/schedules", planFlag: "useSchedules" },
  { key: "tags", path: "/tags" },
  { key: "chats", path: "/chats", planFlag: "useInternalChat" },
  { key: "helps", path: "/helps" },
  // issue 13: the attention-cycle report, CSAT and exports (docs/adr/0034)
  { key: "reports", path: "/reports", permission: "reports:view" },
  { key: "campaigns", path: "/campaigns", adminOnly: true, planFlag: "useCampaigns", needsCampaignsEnabled: true },
  { key: "contactLists", path: "/contact-lists", adminOnly: true, planFlag: "useCampaigns", needsCampaignsEnabled: true },
  { key: "campaignsConfig", path: "/campaigns-config", adminOnly: true, planFlag: "useCampaigns", needsCampaignsEnabled: true },
  { key: "announcements", path: "/announcements", adminOnly: true, superOnly: true },
  { key: "prompts", path: "/prompts", adminOnly: true, planFlag: "useOpenAi" },
  { key: "queueIntegration", path: "/queue-integration", adminOnly: true, planFlag: "useIntegrations" },
  { key: "flows", path: "/flows", adminOnly: true, planFlag: "useIntegrations" },
  { key: "connections", path: "/connections", adminOnly: true },
  { key: "files", path: "/files", adminOnly: true },
  { key: "queues", path: "/queues", adminOnly: true },
  { key: "users", path: "/users", adminOnly: true },
  // LGPD (docs/adr/0030): the company's opt-out list
  { key: "optOuts", path: "/opt-outs", adminOnly: true },
  { key: "messagesApi", path: "/messages-api", adminOnly: true, planFlag: "useExternalApi" },
  { key: "financeiro", path: "/financeiro", adminOnly: true },
  { key: "settings", path: "/settings", adminOnly: true },
  { key: "auditLogs", path: "/audit-logs", adminOnly: true },
];

export type MenuViewer = { profile: Profile; super: boolean; campaignsEnabled: boolean };

export const visibleMenuItems = (viewer: MenuViewer, flags: PlanFlags): MenuItem[] =>
  MENU_ITEMS.filter((item) => {
    if (item.adminOnly && viewer.profile !== "admin") return false;
    if (item.permission && !can(viewer.profile, item.permission)) return false;
    if (item.superOnly && !viewer.super) return false;
    if (item.planFlag && !flags[item.planFlag]) return false;
    if (item.needsCampaignsEnabled && !viewer.campaignsEnabled) return false;
    return true;
  });
