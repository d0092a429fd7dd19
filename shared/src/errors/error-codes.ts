/**
 * The error catalogue of spec 1 section 8, plus the few codes the server
 * needs beyond it (validation, rate limit, plan limits, due date).
 * The wire format is always `{ "error": "ERR_..." }` with the status below.
 */
export const ERROR_STATUS = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_WAPP_MEDIA_TOO_LARGE: 413,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 400,
  ERR_CREATING_TICKET: 400,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Beyond the spec's list: used by the server for cases the spec leaves open.
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_TOKEN_EXPIRED: 403,
  ERR_COMPANY_EXPIRED: 402,
  ERR_TOO_MANY_ATTEMPTS: 429,
  ERR_PLAN_LIMIT_USERS: 403,
  ERR_PLAN_LIMIT_CONNECTIONS: 403,
  ERR_PLAN_LIMIT_QUEUES: 403,
  ERR_DUPLICATED_NAME: 409,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_SIGNUP_DISABLED: 403,
  /** a closed ticket accepts no message until it is reopened or accepted */
  ERR_TICKET_CLOSED: 409,
  ERR_INVALID_RESET_TOKEN: 400,
  ERR_DUPLICATED_SHORTCODE: 409,
  /** a contact with a pending/open ticket cannot be deleted */
  ERR_CONTACT_HAS_OPEN_TICKET: 409,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_INTEGRATION_FOUND: 404,
  /** a queue or connection still points at the prompt/integration: unlink it first */
  ERR_PROMPT_IN_USE: 409,
  ERR_INTEGRATION_IN_USE: 409,
  /** rotate-secret on an integration type that does not sign its calls (only n8n and webhook do) */
  ERR_INTEGRATION_NO_SECRET: 400,
  /** DialogFlow test: the service-account JSON is not usable (bad JSON, wrong type, missing key, other project) */
  ERR_DIALOGFLOW_INVALID_CREDENTIALS: 400,
  /** DialogFlow test: Google refused the credentials or the project */
  ERR_DIALOGFLOW_REJECTED: 400,
  /** DialogFlow test: Google could not be reached from the server */
  ERR_DIALOGFLOW_UNREACHABLE: 502,
  /**
   * an integration, prompt or connection URL the platform does not call (docs/adr/0062): a cloud metadata or other
   * link-local address always; loopback or private addresses where the outbound guard is on (AWS)
   */
  ERR_URL_NOT_ALLOWED: 400,
  /** contact-list import: not a readable .xls/.xlsx spreadsheet */
  ERR_INVALID_IMPORT_FILE: 400,
  /** GET /contacts/import/{requestId}: no such import in the caller's company (or over a day old) */
  ERR_NO_IMPORT_FOUND: 404,
  /** billing: the invoice is not the caller's company's, or does not exist */
  ERR_NO_INVOICE_FOUND: 404,
  ERR_INVOICE_ALREADY_PAID: 409,
  /** billing: the Pix provider could not be reached or is not configured */
  ERR_PAYMENT_PROVIDER_UNAVAILABLE: 502,
  /** the platform's database could not be reached (a network error or its own 5xx/throttling): try again shortly */
  ERR_SERVICE_UNAVAILABLE: 503,
  /** the copilot (issue 33): off for the company, or this feature of it is off; nothing was sent to the provider */
  ERR_COPILOT_DISABLED: 409,
  /** the copilot's provider timed out (20 s) or answered an error: `data.status` is its HTTP status (0: unreachable) */
  ERR_COPILOT_PROVIDER: 502,
  /** the company's AI tokens this month reached the copilot's monthly cap */
  ERR_AI_QUOTA: 429,
  /** campaigns: the campaign's status no longer allows this edit, or this cancel/restart */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  ERR_CAMPAIGN_INVALID_STATUS: 409,
  /** the request body is over the limit for its kind (JSON 1 MiB, multipart 65 MiB): docs/security.md */
  ERR_PAYLOAD_TOO_LARGE: 413,
  /** the route takes a JSON body and the request's Content-Type is not JSON (e.g. text/plain) */
  ERR_UNSUPPORTED_CONTENT_TYPE: 415,
  /** uploads: the file's content (sniffed, not its name) is not allowed where it was sent (docs/security.md) */
  ERR_INVALID_MEDIA_TYPE: 400,
  ERR_EMPTY_FILE: 400,
  /** two-factor sign-in (docs/adr/0029): a wrong or reused code (counts toward the login throttle) */
  ERR_MFA_INVALID_CODE: 400,
  /** the mfaToken is unknown, expired, already used, or for another step: sign in again */
  ERR_MFA_TOKEN_INVALID: 401,
  ERR_MFA_NOT_SET_UP: 400,
  ERR_MFA_ALREADY_ENABLED: 409,
  ERR_MFA_NOT_ENABLED: 400,
  /** two-factor is required by the company or the operator: it cannot be turned off */
  ERR_MFA_REQUIRED: 403,
  ERR_INTERNAL: 500,
  /** LGPD (docs/adr/0030): the number is on the company's opt-out list (external API sends, campaigns skip it) */
  ERR_NUMBER_OPTED_OUT: 409,
  /** LGPD: the number belongs to a person whose data was erased (an import refuses the row with this reason) */
  ERR_NUMBER_ERASED: 409,
  /** LGPD: a group is not a person; its data cannot be exported or erased as one */
  ERR_CONTACT_IS_GROUP: 400,
  /** Cloud API: more than 24 hours since the customer's last message; only an approved template may be sent */
  ERR_WINDOW_CLOSED: 409,
  /** the connection's provider cannot do this (Cloud API: editing, deleting for everyone) */
  ERR_CHANNEL_UNSUPPORTED: 400,
  /** Cloud API: the Graph API refused the credentials or could not be reached (connection test, template sync) */
  ERR_CLOUDAPI_CHECK_FAILED: 502,
  /** Cloud API: no synced template with this name and language on the connection */
  ERR_TEMPLATE_NOT_FOUND: 404,
  /** Cloud API: the template is not approved by Meta (pending, rejected, paused ...) */
  ERR_TEMPLATE_NOT_APPROVED: 400,
  /** Cloud API: a template variable has no value */
  ERR_TEMPLATE_VALUES_MISSING: 400,
  /** agent status (docs/adr/0032): a pause names one of the company's pause reasons */
  ERR_PAUSE_REASON_REQUIRED: 400,
  ERR_NO_PAUSE_REASON_FOUND: 404,
  /** Cloud API: campaigns on a Cloud API connection send approved templates only (free text is refused) */
  ERR_CAMPAIGN_TEMPLATE_REQUIRED: 400,
  /** a ticket carries at most MAX_TAGS_PER_TICKET tags (its change is one transaction, docs/adr/0040) */
  ERR_TOO_MANY_TAGS: 400,
  /** issue 30: a flow graph that cannot run (data: { errors, warnings } with the nodes at fault) */
  ERR_FLOW_INVALID: 400,
  /** issue 30: a connection, queue or running conversation uses the flow (data: { whatsappIds, queueIds, runningConversations }) */
  ERR_FLOW_IN_USE: 409,
  /** issue 30: no such flow in the caller's company (or, set on a connection or queue, none published yet) */
  ERR_NO_FLOW_FOUND: 404,
  /** many writes to one ticket at once (e.g. parallel API sends to one number) and this one's turn did not come in time: nothing was stored; try again */
  ERR_TICKET_BUSY: 409,
  /** the website chat: the page's origin is not one of the connection's allowed origins (docs/adr/0092) */
  ERR_ORIGIN_NOT_ALLOWED: 403,
  /** Web Push (docs/adr/0097): the subscription's endpoint is not an https URL the platform may call */
  ERR_PUSH_ENDPOINT_NOT_ALLOWED: 400,
  /** Web Push: keys.p256dh is not a P-256 public point or keys.auth is not 16 bytes (base64url) */
  ERR_PUSH_INVALID_KEYS: 400,
  /** Web Push: the user already has 10 devices subscribed */
  ERR_PUSH_TOO_MANY_DEVICES: 409,
  /** Web Push: none of the caller's subscriptions has that endpoint */
  ERR_PUSH_SUBSCRIPTION_NOT_FOUND: 404,
  /** issue 34: a contact cannot be merged into itself */
  ERR_MERGE_SAME_CONTACT: 400,
  /** issue 34: both contacts have a pending/open ticket on the same connection (data: { close: [{ ticketId, whatsappId }] }: close those first) */
  ERR_MERGE_OPEN_TICKETS: 409,
  /** issue 34: an LGPD erasure runs for one of the two contacts (docs/adr/0030) */
  ERR_MERGE_ERASURE_RUNNING: 409,
  /** issue 34: the contact is being merged into another contact (finish that merge first: run it again) */
  ERR_MERGE_IN_PROGRESS: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);

export type ErrorBody = {
  error: ErrorCode | string;
  /** ZodError issues for ERR_VALIDATION */
  issues?: { path: (string | number)[]; message: string }[];
  /** extra data, e.g. the existing ticket with ERR_OTHER_OPEN_TICKET, or the due date with ERR_COMPANY_EXPIRED */
  data?: unknown;
  requestId?: string;
};
