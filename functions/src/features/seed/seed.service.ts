import { COMPANY_SETTING_DEFAULTS, GLOBAL_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { CONNECTION_DEFAULTS, DEFAULT_SCHEDULES, DEFAULT_TIME_ZONE } from "@atende/shared/constants/business";
import { addMonths } from "@atende/shared/domain/format/dates";
import { randomBytes } from "node:crypto";
import type { CompanyCreation } from "../companies/companies.ports";
import type { PlanCreation } from "../plans/plans.ports";
import type { QueueCreation } from "../queues/queues.ports";
import type { SettingsStore } from "../settings/settings.ports";
import type { UserCreation } from "../users/users.ports";
import type { WhatsappCreation } from "../whatsapps/whatsapps.ports";
import { hashPassword } from "../auth/password";

export type SeedLogin = { role: string; email: string; password: string; company: string };

export const DEMO_LOGINS: SeedLogin[] = [
  { role: "operator (super)", email: "operador@atende.local", password: "Operador123", company: "Plataforma Atende" },
  { role: "admin", email: "admin@demo.com.br", password: "Admin1234", company: "Demo Atendimento" },
  { role: "attendant", email: "atendente@demo.com.br", password: "Atende1234", company: "Demo Atendimento" },
  // issue 34: the supervisor (every queue, the dashboard, reports, the cockpit, whispers; no configuration)
  { role: "supervisor", email: "supervisor@demo.com.br", password: "Supervisor1234", company: "Demo Atendimento" },
];

/** First start: the platform operator, a demo company on a plan with every flag on, its people, queues and a simulator connection. */
export const createSeedService = (deps: {
  plans: PlanCreation;
  companies: CompanyCreation;
  users: UserCreation;
  settings: SettingsStore;
  queues: QueueCreation;
  whatsapps: WhatsappCreation;
  clock: () => Date;
  bcryptRounds: number;
}) => {
  const { plans, companies, users, settings, queues, whatsapps, clock } = deps;
  return {
    async isSeeded(): Promise<boolean> {
      return (await settings.get(null, "seededAt")) !== null;
    },
    async seed(): Promise<SeedLogin[]> {
      const now = clock();
      const planFlags = {
        useCampaigns: true,
        useSchedules: true,
        useInternalChat: true,
        useExternalApi: true,
        useKanban: true,
        useOpenAi: true,
        useIntegrations: true,
        useInternal: true,
      };
      // connections: one of each kind for the demo company (WhatsApp by QR, Cloud API, Telegram, Messenger, Instagram, website chat; issue 31)
      const full = await plans.create({ name: "Completo", users: 10, connections: 6, queues: 10, value: 199.9, ...planFlags }, now);
      await plans.create(
        {
          name: "Básico",
          users: 3,
          connections: 1,
          queues: 2,
          value: 79.9,
          ...planFlags,
          useCampaigns: false,
          useKanban: false,
          useOpenAi: false,
          useIntegrations: false,
          useExternalApi: false,
        },
        now,
      );
      await settings.putMany(null, { ...GLOBAL_SETTING_DEFAULTS }, now);

      const base = { email: "", phone: "", status: true, recurrence: "MENSAL" as const, timezone: DEFAULT_TIME_ZONE, trialExpiration: null, document: "" };
      const platform = await companies.create(
        { ...base, name: "Plataforma Atende", email: "operador@atende.local", planId: full.id, dueDate: addMonths(now, 120).toISOString() },
        now,
      );
      const demo = await companies.create(
        { ...base, name: "Demo Atendimento", email: "admin@demo.com.br", planId: full.id, dueDate: addMonths(now, 12).toISOString() },
        now,
      );
      await settings.putMany(platform.id, { ...COMPANY_SETTING_DEFAULTS }, now);
      await settings.putMany(demo.id, { ...COMPANY_SETTING_DEFAULTS }, now);

      const queueBase = { outOfHoursMessage: "", integrationId: null, promptId: null, schedules: DEFAULT_SCHEDULES, mediaPath: null, mediaName: null };
      const sales = await queues.create(
        demo.id,
        { ...queueBase, name: "Vendas", color: "#4caf50", orderQueue: 1, greetingMessage: "Você está no setor de Vendas. Em que podemos ajudar?" },
        now,
      );
      const support = await queues.create(
        demo.id,
        { ...queueBase, name: "Suporte", color: "#2196f3", orderQueue: 2, greetingMessage: "Você está no Suporte. Descreva o seu problema." },
        now,
      );
      const connection = await whatsapps.create(
        demo.id,
        {
          ...CONNECTION_DEFAULTS,
          name: "Simulador",
          number: "",
          status: "DISCONNECTED",
          isDefault: true,
          channel: "simulator",
          greetingMessage: "{{greeting}}, {{firstName}}! Bem-vindo à Demo Atendimento. Escolha uma opção:",
          complationMessage: "Atendimento encerrado. Obrigado pelo contato!",
          outOfHoursMessage: "Estamos fora do horário de atendimento. Responderemos assim que possível.",
          ratingMessage: "",
          expiresInactiveMessage: "",
          timeToTransfer: null,
          transferQueueId: null,
          promptId: null,
          integrationId: null,
          queueIds: [sales.id, support.id],
          token: randomBytes(24).toString("hex"),
          qrcode: "",
          retries: 0,
        },
        now,
      );

      const [operator, admin, attendant] = DEMO_LOGINS as [SeedLogin, SeedLogin, SeedLogin];
      const hash = (p: string) => hashPassword(p, deps.bcryptRounds);
      await users.create(
        platform.id,
        { name: "Operador", email: operator.email, passwordHash: await hash(operator.password), profile: "admin", super: true, whatsappId: null, allTicket: "enabled", queueIds: [] },
        now,
      );
      await users.create(
        demo.id,
        { name: "Ana Admin", email: admin.email, passwordHash: await hash(admin.password), profile: "admin", super: false, whatsappId: connection.id, allTicket: "enabled", queueIds: [sales.id, support.id] },
        now,
      );
      await users.create(
        demo.id,
        { name: "Beto Atendente", email: attendant.email, passwordHash: await hash(attendant.password), profile: "user", super: false, whatsappId: connection.id, allTicket: "desabled", queueIds: [support.id] },
        now,
      );
      const supervisor = DEMO_LOGINS.find((l) => l.role === "supervisor")!;
      await users.create(
        demo.id,
        { name: "Carla Supervisora", email: supervisor.email, passwordHash: await hash(supervisor.password), profile: "supervisor", super: false, whatsappId: connection.id, allTicket: "enabled", queueIds: [] },
        now,
      );
      await settings.put(null, "seededAt", now.toISOString(), now);
      return DEMO_LOGINS;
    },
  };
};
export type SeedService = ReturnType<typeof createSeedService>;
