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
