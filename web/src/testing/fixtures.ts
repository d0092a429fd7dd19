import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { Plan } from "@atende/shared/domain/plans/plan";

/** A signed-in user for component tests; override what the test is about. */
export const aUser = (over: Partial<SessionUser> = {}): SessionUser => ({
  id: 2,
  name: "Ana Admin",
  email: "admin@demo.com.br",
  profile: "admin",
  super: false,
  companyId: 2,
  whatsappId: 1,
  allTicket: "enabled",
  online: true,
  queues: [],
  company: {
    id: 2,
    name: "Demo Atendimento",
    dueDate: "2099-01-01T00:00:00.000Z",
    status: true,
    planId: 1,
    timezone: "America/Sao_Paulo",
    settings: [{ key: "campaignsEnabled", value: "true" }],
  },
  ...over,
});

export const aPlan = (over: Partial<Plan> = {}): Plan => ({
  id: 1,
  name: "Completo",
  users: 10,
  connections: 3,
  queues: 10,
  value: 199.9,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useInternal: true,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

/**
 * What the signed-in layout asks the API on any page (the plan, the top bar's version, announcements, internal chats,
 * agent status and pause reasons), answered empty; the page's own reads are the caller's to add.
 */
export const signedInLayoutRoutes = (user: SessionUser = aUser()) => ({
  "GET /api/companies/listPlan/2": { id: 2, name: user.company.name, dueDate: user.company.dueDate, plan: aPlan() },
  "GET /api/version": { version: "1.0.0" },
  // the top bar's announcements and internal chats popovers
  "GET /api/announcements": { records: [], hasMore: false },
  "GET /api/chats": { records: [], hasMore: false },
  // the top bar's own status switch (agent status)
  "GET /api/agents/me": { userId: user.id, name: user.name, profile: user.profile, queueIds: [], status: "offline", pauseReasonId: null, pauseReason: null, since: null, openTickets: 0, capacity: 5, ownCapacity: null, lastAssignedAt: null },
  "GET /api/pause-reasons": [],
});
