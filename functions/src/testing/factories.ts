import { randomBytes } from "node:crypto";
import { COMPANY_SETTING_DEFAULTS } from "@atende/shared/constants/settings";
import { CONNECTION_DEFAULTS, DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import type { PlanInput } from "@atende/shared/domain/plans/plan";
import { hashPassword } from "../features/auth/password";
import type { Company } from "../features/companies/companies.repository";
import type { TestApp } from "./test-app";

export type TenantOptions = {
  name?: string;
  dueDate?: string | null;
  plan?: Partial<PlanInput>;
  settings?: Record<string, string>;
  queues?: { name: string; color: string; greetingMessage?: string }[];
};

const FULL_PLAN: PlanInput = {
  name: "Teste",
  users: 10,
  connections: 5,
  queues: 10,
  value: 100,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useInternal: true,
};

/**
 * A company with a plan, settings, queues, a simulator connection, an admin and an attendant (in the first
 * queue), each already logged in. Emails are unique per call so many tenants share one table.
 */
export const createTenant = async (t: TestApp, opts: TenantOptions = {}) => {
  const { repos } = t.container;
  const now = t.clock.now;
  const tag = randomBytes(4).toString("hex");
  const plan = await repos.plans.create({ ...FULL_PLAN, ...opts.plan }, now);
  const company: Company = await repos.companies.create(
    {
      name: opts.name ?? `Empresa ${tag}`,
      email: `dono-${tag}@teste.com`,
      phone: "",
      planId: plan.id,
      status: true,
      dueDate: opts.dueDate === undefined ? new Date(now.getTime() + 30 * 86_400_000).toISOString() : opts.dueDate,
      recurrence: "MENSAL",
      timezone: "America/Sao_Paulo",
      trialExpiration: null,
      document: "",
    },
    now,
  );
  await repos.settings.putMany(company.id, { ...COMPANY_SETTING_DEFAULTS, ...opts.settings }, now);
  const queues = [];
  for (const [i, q] of (opts.queues ?? [{ name: "Vendas", color: "#111111" }, { name: "Suporte", color: "#222222" }]).entries()) {
    queues.push(
      await repos.queues.create(
        company.id,
        {
          name: q.name,
          color: q.color,
          greetingMessage: q.greetingMessage ?? `Fila ${q.name}`,
          outOfHoursMessage: "",
          orderQueue: i + 1,
          integrationId: null,
          promptId: null,
          schedules: DEFAULT_SCHEDULES,
          mediaPath: null,
          mediaName: null,
        },
        now,
      ),
    );
  }
  const whatsapp = await repos.whatsapps.create(
    company.id,
    {
      ...CONNECTION_DEFAULTS,
      name: "Simulador",
      number: "",
      status: "CONNECTED",
      isDefault: true,
      channel: "simulator",
      greetingMessage: "Olá! Escolha uma fila:",
      complationMessage: "Atendimento encerrado.",
      outOfHoursMessage: "Fora do horário.",
      ratingMessage: "",
      expiresInactiveMessage: "",
      timeToTransfer: null,
      transferQueueId: null,
      promptId: null,
      integrationId: null,
      queueIds: queues.map((q) => q.id),
      token: randomBytes(24).toString("hex"),
      qrcode: "",
      retries: 0,
    },
    now,
  );
  const password = "Senha1234";
  const passwordHash = await hashPassword(password, 4);
  const admin = await repos.users.create(
    company.id,
    { name: "Admin Teste", email: `admin-${tag}@teste.com`, passwordHash, profile: "admin", super: false, whatsappId: whatsapp.id, allTicket: "enabled", queueIds: queues.map((q) => q.id) },
    now,
  );
  const user = await repos.users.create(
    company.id,
    { name: "Atendente Teste", email: `user-${tag}@teste.com`, passwordHash, profile: "user", super: false, whatsappId: whatsapp.id, allTicket: "desabled", queueIds: queues[0] ? [queues[0].id] : [] },
    now,
  );
  const login = async (email: string) => {
    const res = await t.call("POST", "/auth/login", { body: { email, password }, address: `10.0.${tag.length}.1` });
    if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.token as string, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "" };
  };
  const adminSession = opts.dueDate && new Date(opts.dueDate) < now ? null : await login(admin.email);
  const userSession = opts.dueDate && new Date(opts.dueDate) < now ? null : await login(user.email);
  return { company, plan, queues, whatsapp, admin, user, password, adminToken: adminSession?.token ?? "", userToken: userSession?.token ?? "", adminSession, userSession, login };
};
export type Tenant = Awaited<ReturnType<typeof createTenant>>;
