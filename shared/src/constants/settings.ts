/** Company setting keys (spec 2 section 3) and their defaults for a new company. */
export const COMPANY_SETTING_DEFAULTS = {
  userRating: "disabled",
  scheduleType: "disabled",
  call: "disabled",
  CheckMsgIsGroup: "enabled",
  chatBotType: "text",
  sendGreetingAccepted: "disabled",
  sendMsgTransfTicket: "disabled",
  sendGreetingMessageOneQueues: "enabled",
  campaignsEnabled: "true",
  /** two-factor sign-in required for every user of the company (docs/adr/0029) */
  requireMfa: "disabled",
  /** issue 13: a new attention cycle's protocol number is sent to the customer when it opens */
  sendProtocolOnOpen: "disabled",
  /** automatic distribution (docs/adr/0032): max open tickets of an attendant without a capacity of their own */
  defaultCapacity: "5",
  /** Privacidade (docs/adr/0097): a push notification shows the message's text; off, only "Nova mensagem de <nome>" (LGPD) */
  pushPreviews: "disabled",
} as const;
export type CompanySettingKey = keyof typeof COMPANY_SETTING_DEFAULTS;

/** Platform-wide settings, read and written by the operator only. */
export const GLOBAL_SETTING_DEFAULTS = {
  allowregister: "enabled",
  viewregister: "enabled",
  trial: "3",
  ipixc: "",
  tokenixc: "",
  ipmkauth: "",
  clientidmkauth: "",
  clientsecretmkauth: "",
  asaas: "",
  /** two-factor sign-in required for every user of every company (docs/adr/0029) */
  requireMfaAllCompanies: "disabled",
  /** days an audit entry is kept before DynamoDB's TTL removes it (docs/adr/0029) */
  auditRetentionDays: "365",
} as const;
export type GlobalSettingKey = keyof typeof GLOBAL_SETTING_DEFAULTS;
