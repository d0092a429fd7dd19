import { type ComponentType, lazy } from "react";
import type { PlanFlag } from "@atende/shared/domain/plans/plan";
import { loadAllTranslations } from "../lib/i18n";

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
  superOnly?: boolean;
  planFlag?: PlanFlag;
  deniedRedirect?: string;
};

/** Public pages: an authenticated user visiting them goes to /. */
export const PUBLIC_ROUTES: AppRoute[] = [
  { path: "/login", titleKey: "auth:title", Component: lazy(() => import("../features/auth/components/login-page").then((m) => ({ default: m.LoginPage }))) },
  { path: "/signup", titleKey: "auth:signup", Component: lazy(() => Promise.all([import("../features/signup/components/signup-page"), loadAllTranslations()]).then(([m]) => ({ default: m.SignupPage }))) },
  { path: "/forgetpsw", titleKey: "auth:forgotPassword", Component: lazy(() => Promise.all([import("../features/forget-password/components/forget-password-page"), loadAllTranslations()]).then(([m]) => ({ default: m.ForgetPasswordPage }))) },
];

/** Private pages, inside the main layout: an unauthenticated user goes to /login. */
export const PRIVATE_ROUTES: AppRoute[] = [
  { path: "/", titleKey: "menu:dashboard", Component: lazy(() => import("../features/dashboard/components/dashboard-page").then((m) => ({ default: m.DashboardPage }))), adminOnly: true, deniedRedirect: "/tickets" },
  { path: "/tickets/:ticketId?", titleKey: "menu:tickets", Component: lazy(() => import("../features/inbox/tickets/components/tickets-page").then((m) => ({ default: m.TicketsPage }))) },
  { path: "/quick-messages", titleKey: "menu:quickMessages", Component: lazy(() => import("../features/quick-messages/components/quick-messages-page").then((m) => ({ default: m.QuickMessagesPage }))) },
  { path: "/kanban", titleKey: "menu:kanban", Component: lazy(() => import("../features/kanban/components/kanban-page").then((m) => ({ default: m.KanbanPage }))), planFlag: "useKanban" },
  { path: "/todolist", titleKey: "menu:todolist", Component: lazy(() => import("../features/todo/components/todo-page").then((m) => ({ default: m.TodoPage }))) },
  { path: "/contacts", titleKey: "menu:contacts", Component: lazy(() => import("../features/inbox/contacts/components/contacts-page").then((m) => ({ default: m.ContactsPage }))) },
  { path: "/schedules", titleKey: "menu:schedules", Component: lazy(() => import("../features/schedules/components/schedules-page").then((m) => ({ default: m.SchedulesPage }))), planFlag: "useSchedules" },
  { path: "/tags", titleKey: "menu:tags", Component: lazy(() => import("../features/tags/components/tags-page").then((m) => ({ default: m.TagsPage }))) },
  { path: "/chats/:id?", titleKey: "menu:chats", Component: lazy(() => import("../features/chats/components/chats-page").then((m) => ({ default: m.ChatsPage }))), planFlag: "useInternalChat" },
  { path: "/helps", titleKey: "menu:helps", Component: lazy(() => import("../features/helps/components/helps-page").then((m) => ({ default: m.HelpsPage }))) },
  { path: "/campaigns", titleKey: "menu:campaigns", Component: lazy(() => import("../features/campaigns/components/campaigns-page").then((m) => ({ default: m.CampaignsPage }))), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/campaign/:campaignId/report", titleKey: "menu:campaigns", Component: lazy(() => import("../features/campaigns/components/campaign-report-page").then((m) => ({ default: m.CampaignReportPage }))), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/contact-lists", titleKey: "menu:contactLists", Component: lazy(() => import("../features/contact-lists/components/contact-lists-page").then((m) => ({ default: m.ContactListsPage }))), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/contact-lists/:contactListId/contacts", titleKey: "menu:contactLists", Component: lazy(() => import("../features/contact-lists/components/contact-list-items-page").then((m) => ({ default: m.ContactListItemsPage }))), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/campaigns-config", titleKey: "menu:campaignsConfig", Component: lazy(() => import("../features/campaign-settings/components/campaign-settings-page").then((m) => ({ default: m.CampaignSettingsPage }))), adminOnly: true, planFlag: "useCampaigns" },
  { path: "/announcements", titleKey: "menu:announcements", Component: lazy(() => import("../features/announcements/components/announcements-page").then((m) => ({ default: m.AnnouncementsPage }))), superOnly: true },
  { path: "/prompts", titleKey: "menu:prompts", Component: lazy(() => import("../features/prompts/components/prompts-page").then((m) => ({ default: m.PromptsPage }))), adminOnly: true, planFlag: "useOpenAi" },
  { path: "/queue-integration", titleKey: "menu:queueIntegration", Component: lazy(() => import("../features/queue-integrations/components/queue-integrations-page").then((m) => ({ default: m.QueueIntegrationsPage }))), adminOnly: true, planFlag: "useIntegrations" },
  { path: "/connections", titleKey: "menu:connections", Component: lazy(() => import("../features/connections/components/connections-page").then((m) => ({ default: m.ConnectionsPage }))), adminOnly: true },
  { path: "/files", titleKey: "menu:files", Component: lazy(() => import("../features/files/components/files-page").then((m) => ({ default: m.FilesPage }))), adminOnly: true },
  { path: "/queues", titleKey: "menu:queues", Component: lazy(() => import("../features/queues/components/queues-page").then((m) => ({ default: m.QueuesPage }))), adminOnly: true },
  { path: "/opt-outs", titleKey: "menu:optOuts", Component: lazy(() => import("../features/lgpd/components/opt-outs-page").then((m) => ({ default: m.OptOutsPage }))), adminOnly: true },
  { path: "/users", titleKey: "menu:users", Component: lazy(() => import("../features/users/components/users-page").then((m) => ({ default: m.UsersPage }))), adminOnly: true },
  { path: "/messages-api", titleKey: "menu:messagesApi", Component: lazy(() => import("../features/messages-api/components/messages-api-page").then((m) => ({ default: m.MessagesApiPage }))), adminOnly: true, planFlag: "useExternalApi" },
  { path: "/financeiro", titleKey: "menu:financeiro", Component: lazy(() => import("../features/invoices/components/invoices-page").then((m) => ({ default: m.InvoicesPage }))), adminOnly: true },
  { path: "/settings", titleKey: "menu:settings", Component: lazy(() => import("./pages/settings-page").then((m) => ({ default: m.SettingsPage }))), adminOnly: true },
  { path: "/audit-logs", titleKey: "menu:auditLogs", Component: lazy(() => import("../features/audit/components/audit-page").then((m) => ({ default: m.AuditPage }))), adminOnly: true },
  { path: "/subscription", titleKey: "menu:subscription", Component: lazy(() => import("../features/subscription/components/subscription-page").then((m) => ({ default: m.SubscriptionPage }))) },
];
