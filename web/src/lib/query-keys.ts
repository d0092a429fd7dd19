/**
 * The query-key factories that more than one feature reads or invalidates (ADR 0022). A key is only ever built
 * through a factory: no array literal retyped elsewhere. Keys used by one feature alone stay in that feature's api.
 */
export const queueKeys = {
  all: ["queues"] as const,
  /** GET /queue, cached once: the queues page and every queue picker read this one entry */
  list: () => [...queueKeys.all, "list"] as const,
  options: (queueId: number, parentId: number | null) => [...queueKeys.all, "options", queueId, parentId ?? -1] as const,
  prompts: () => [...queueKeys.all, "prompts"] as const,
  integrations: () => [...queueKeys.all, "integrations"] as const,
};

export const whatsappKeys = {
  all: ["whatsapps"] as const,
  list: () => [...whatsappKeys.all, "list"] as const,
  one: (id: number) => [...whatsappKeys.all, "one", id] as const,
  picklist: (path: string) => [...whatsappKeys.all, "picklist", path] as const,
};

export const userKeys = {
  all: ["users"] as const,
  lists: () => [...userKeys.all, "list"] as const,
  list: (searchParam: string) => [...userKeys.lists(), searchParam] as const,
  everyones: () => [...userKeys.all, "all"] as const,
  everyone: (companyId?: number) => [...userKeys.everyones(), companyId ?? 0] as const,
  me: (id: number) => [...userKeys.all, "me", id] as const,
};

export const contactKeys = {
  all: ["contacts"] as const,
  lists: () => [...contactKeys.all, "list"] as const,
  list: (searchParam: string) => [...contactKeys.lists(), searchParam] as const,
  detail: (id: number) => [...contactKeys.all, "detail", id] as const,
};

export const planKeys = {
  /** GET /plans (the operator's plans tab) */
  admin: ["plans", "admin"] as const,
  /** GET /plans/all (the company form's plan picker) */
  all: ["plans", "all"] as const,
  /** GET /plans/list (signup, no auth) */
  public: ["plans", "public"] as const,
};

export const kanbanKeys = {
  all: ["kanban"] as const,
  lanes: () => [...kanbanKeys.all, "lanes"] as const,
  tickets: (queueIds: number[]) => [...kanbanKeys.all, "tickets", queueIds] as const,
};

/** The small lists the inbox dialogs pick from (lib/pickers.ts). */
export const pickerKeys = {
  all: ["inbox-pickers"] as const,
  tags: () => [...pickerKeys.all, "tags"] as const,
  quickMessagesAll: () => [...pickerKeys.all, "quick-messages"] as const,
  quickMessages: (userId: number) => [...pickerKeys.quickMessagesAll(), userId] as const,
  /** issue 30: the published flows a connection or queue may start */
  flows: () => [...pickerKeys.all, "flows"] as const,
};

/** The signed-in user (GET /auth/me): set after login and refresh, invalidated to reload the session user. */
export const sessionKeys = {
  me: () => ["auth", "me"] as const,
};

/** Keys of the shell and the public pages: API version, API health, public settings (logos, sign-up switches). */
export const appKeys = {
  version: () => ["version"] as const,
  health: () => ["api-health"] as const,
  publicSettings: () => ["settings", "public"] as const,
};

/** One company: its record (GET /companies/{id}, the settings' hours tab and the subscription page) and its plan. */
export const companyRecordKeys = {
  all: ["companies"] as const,
  record: (id: number) => [...companyRecordKeys.all, id, "record"] as const,
  plan: (id: number) => [...companyRecordKeys.all, id, "plan"] as const,
};
