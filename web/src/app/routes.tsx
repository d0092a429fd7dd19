import type { ComponentType } from "react";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import type { Permission } from "@atende/shared/domain/permissions/permissions";
import { loadAllTranslations } from "../lib/i18n";
import { lazyPage } from "../lib/lazy-page";

/**
 * The route registry (spec 3 section 2, route gating table). Each page is a lazy import of its feature, so a
 * page's code loads only when it is opened (public pages other than /login also wait for the translations past the
 * first screen; private ones get them with the layout, app/router.tsx). Gates: `adminOnly`, `superOnly`, `planFlag` (checked against the session; a refused user gets an error toast
 * and goes to / after 1 s, or straight to `deniedRedirect` when set). The server enforces the same rules.
 */
export type AppRoute = {
  path: string;
  /** i18n key naming the page */
  titleKey: string;
  Component: ComponentType;
  adminOnly?: boolean;
  /** a permission of the shared table (admins and supervisors: docs/adr/0101) */
  permission?: Permission;
  superOnly?: boolean;
  planFlag?: PlanFlag;
  deniedRedirect?: string;
};

/** A page load of /tickets/{uuid} also waits for the conversation pane's chunk, so the page mounts whole (ADR 0047). */
const withConversation = async (m: { TicketsPage: ComponentType; TicketView: { load: () => Promise<void> } }) => {
  if (typeof location !== "undefined" && /^\/tickets\/[^/]+/.test(location.pathname)) await m.TicketView.load().catch(() => undefined);
  return m.TicketsPage;
};

/** Public pages: an authenticated user visiting them goes to /. */
export const PUBLIC_ROUTES: AppRoute[] = [
  { path: "/login", titleKey: "auth:title", Component: lazyPage(() => import("../features/auth/components/login-page").then((m) => m.LoginPage)) },
  { path: "/signup", titleKey: "auth:signup", Component: lazyPage(() => Promise.all([import("../features/signup/components/signup-page"), loadAllTranslations()]).then(([m]) => m.SignupPage)) },
  { path: "/forgetpsw", titleKey: "auth:forgotPassword", Component: lazyPage(() => Promise.all([import("../features/forget-password/components/forget-password-page"), loadAllTranslations()]).then(([m]) => m.ForgetPasswordPage)) },
];

/** Private pages, inside the main layout: an unauthenticated user goes to /login. */
export const PRIVATE_ROUTES: AppRoute[] = [
  { path: "/", titleKey: "menu:dashboard", Component: lazyPage(() => import("../features/dashboard/components/dashboard-page").then((m) => m.DashboardPage)), permission: "dashboard:view", deniedRedirect: "/tickets" },
  { path: "/supervisor", titleKey: "menu:supervisor", Component: lazyPage(() => import("../features/supervisor/components/cockpit-page").then((m) => m.CockpitPage)), permission: "supervisor:cockpit" },
  { path: "/reports", titleKey: "menu:reports", Component: lazyPage(() => import("../features/reports/components/reports-page").then((m) => m.ReportsPage)), permission: "reports:view" },
  { path: "/tickets/:ticketId?", titleKey: "menu:tickets", Component: lazyPage(() => import("../features/inbox/tickets/components/tickets-page").then(withConversation)) },
  { path: "/quick-messages", titleKey: "menu:quickMessages", Component: lazyPage(() => import("../features/quick-messages/components/quick-messages-page").then((m) => m.QuickMessagesPage)) },
  { path: "/kanban", titleKey: "menu:kanban", Component: lazyPage(() => import("../features/kanban/components/kanban-page").then((m) => m.KanbanPage)), planFlag: "useKanban" },
  { path: "/todolist", titleKey: "menu:todolist", Component: lazyPage(() => import("../features/todo/components/todo-page").then((m) => m.TodoPage)) },
  { path: "/contacts", titleKey: "menu:contacts", Component: lazyPage(() => import("../features/inbox/contacts/components/contacts-page").then((m) => m.ContactsPage)) },
  { path: "/schedules", titleKey: "menu:schedules", Component: lazyPage(() => import("../features/schedules/components/schedules-page").then((m) => m.SchedulesPage)), planFlag: "useSchedules" },
  { path: "/tags", titleKey: "menu:tags", Component: lazyPage(() => import("../features/tags/components/tags-page").then((m) => m.TagsPage)) },
  { path: "/chats/:id?", titleKey: "menu:chats", Component: lazyPage(() => import("../features/chats/components/chats-page").then((m) => m.ChatsPage)), planFlag: "useInternalChat" },
  { path: "/helps", titleKey: "menu:helps", Component: lazyPage(() => import("../features/helps/components/helps-page").then((m) => m.HelpsPage)) },
  { path: "/campaigns", titleKey: "menu:campaigns", Component: lazyPage(() => import("../features/campaigns/components/campaigns-page").then((m) => m.CampaignsPage)), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/campaign/:campaignId/report", titleKey: "menu:campaigns", Component: lazyPage(() => import("../features/campaigns/components/campaign-report-page").then((m) => m.CampaignReportPage)), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/contact-lists", titleKey: "menu:contactLists", Component: lazyPage(() => import("../features/contact-lists/components/contact-lists-page").then((m) => m.ContactListsPage)), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/contact-lists/:contactListId/contacts", titleKey: "menu:contactLists", Component: lazyPage(() => import("../features/contact-lists/components/contact-list-items-page").then((m) => m.ContactListItemsPage)), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/campaigns-config", titleKey: "menu:campaignsConfig", Component: lazyPage(() => import("../features/campaign-settings/components/campaign-settings-page").then((m) => m.CampaignSettingsPage)), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/announcements", titleKey: "menu:announcements", Component: lazyPage(() => import("../features/announcements/components/announcements-page").then((m) => m.AnnouncementsPage)), superOnly: true },
  { path: "/prompts", titleKey: "menu:prompts", Component: lazyPage(() => import("../features/prompts/components/prompts-page").then((m) => m.PromptsPage)), adminOnly: true, planFlag: "useOpenAi" },
  { path: "/queue-integration", titleKey: "menu:queueIntegration", Component: lazyPage(() => import("../features/queue-integrations/components/queue-integrations-page").then((m) => m.QueueIntegrationsPage)), adminOnly: true, planFlag: "useIntegrations" },
  { path: "/flows/:flowId?", titleKey: "menu:flows", Component: lazyPage(() => import("../features/flows/components/flows-page").then((m) => m.FlowsPage)), adminOnly: true, planFlag: "useIntegrations" },
  { path: "/connections", titleKey: "menu:connections", Component: lazyPage(() => import("../features/connections/components/connections-page").then((m) => m.ConnectionsPage)), adminOnly: true },
  { path: "/files", titleKey: "menu:files", Component: lazyPage(() => import("../features/files/components/files-page").then((m) => m.FilesPage)), adminOnly: true },
  { path: "/queues", titleKey: "menu:queues", Component: lazyPage(() => import("../features/queues/components/queues-page").then((m) => m.QueuesPage)), adminOnly: true },
  { path: "/opt-outs", titleKey: "menu:optOuts", Component: lazyPage(() => import("../features/lgpd/components/opt-outs-page").then((m) => m.OptOutsPage)), adminOnly: true },
  { path: "/users", titleKey: "menu:users", Component: lazyPage(() => import("../features/users/components/users-page").then((m) => m.UsersPage)), adminOnly: true },
  { path: "/messages-api", titleKey: "menu:messagesApi", Component: lazyPage(() => import("../features/messages-api/components/messages-api-page").then((m) => m.MessagesApiPage)), adminOnly: true, planFlag: "useExternalApi" },
  { path: "/financeiro", titleKey: "menu:financeiro", Component: lazyPage(() => import("../features/invoices/components/invoices-page").then((m) => m.InvoicesPage)), adminOnly: true },
  { path: "/settings", titleKey: "menu:settings", Component: lazyPage(() => import("./pages/settings-page").then((m) => m.SettingsPage)), adminOnly: true },
  { path: "/audit-logs", titleKey: "menu:auditLogs", Component: lazyPage(() => import("../features/audit/components/audit-page").then((m) => m.AuditPage)), adminOnly: true },
  { path: "/subscription", titleKey: "menu:subscription", Component: lazyPage(() => import("../features/subscription/components/subscription-page").then((m) => m.SubscriptionPage)) },
];
