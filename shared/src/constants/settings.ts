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
} as const;
export type GlobalSettingKey = keyof typeof GLOBAL_SETTING_DEFAULTS;
