/**
 * Custom CloudWatch metrics (EMF, Powertools Metrics) shared by the emitters (functions/, session-host/) and the
 * alarms and dashboard (infra/aws). The namespace is per stage (`Atende/<stage>`, POWERTOOLS_METRICS_NAMESPACE);
 * every metric carries the `service` dimension (POWERTOOLS_SERVICE_NAME = METRICS_SERVICE).
 */
export const METRICS_SERVICE = "atende";
export const metricsNamespace = (stage: string) => `Atende/${stage}`;

export const METRIC = {
  /** a WhatsApp message stored from a customer (dimension `provider`: baileys, simulator, cloud-api) */
  messagesIn: "MessagesIn",
  /** an agent's/bot's message handed to the session host (dimension `provider`) */
  messagesOut: "MessagesOut",
  /** a send the provider refused (dimension `code`) */
  sendFailures: "SendFailures",
  /** a send a channel's provider refused, by channel (dimension `provider`: cloud-api, messenger, instagram, telegram) */
  channelSendFailures: "ChannelSendFailures",
  /** milliseconds between a queue message's first send and its consumption (dimension `queue`) */
  queueAge: "QueueAgeAtConsumption",
  /** milliseconds of GET /api/tickets */
  ticketListLatency: "TicketListLatency",
  /** a ticket got an attendant (dimension `mode`: automatic, own-attendant, accepted, transferred) */
  assignments: "Assignments",
  /** a bot turn that sent at least one message (dimension `kind`) */
  botAnswers: "BotAnswers",
  /** a bot handed its ticket to a person (dimension `reason`) */
  handovers: "Handovers",
  /** a post to a WebSocket connection that failed (not "gone": an error of the management API) */
  webSocketDeliveryFailures: "WebSocketDeliveryFailures",
  /** the session host renewed its leases (one per heartbeat round); missing for 2 minutes raises an alarm */
  sessionLeaseRenewals: "SessionLeaseRenewals",
  /**
   * sessions per session host, averaged over the hosts (each host puts its sessions plus its share of the
   * connections waiting for capacity): the fleet's target-tracking autoscaling metric (docs/adr/0070)
   */
  sessionsPerHost: "SessionsPerHost",
  /** connections that should run but no session host has room for (WAITING_CAPACITY); above 0 raises an alarm */
  sessionsWaitingCapacity: "SessionsWaitingCapacity",
  /** Meta Cloud API webhook calls whose X-Hub-Signature-256 did not match the connection's app secret */
  cloudApiSignatureFailures: "CloudApiWebhookSignatureFailures",
  /** Messenger / Instagram webhook calls whose X-Hub-Signature-256 did not match (docs/adr/0090) */
  metaSignatureFailures: "MetaWebhookSignatureFailures",
  /** Telegram webhook calls without the connection's X-Telegram-Bot-Api-Secret-Token (docs/adr/0088) */
  telegramSecretFailures: "TelegramWebhookSecretFailures",
  /** WhatsApp asked a number for a passkey while linking: the connection shows PASSKEY_REQUIRED (ADR 0076) */
  passkeyRequired: "PasskeyRequired",
  /** a Baileys socket closed with 500 (bad session) for the third time in a row or more: an alert, never a clear */
  badSessionCloses: "BadSessionCloses",
  /** a payment notification refused or failed (bad secret, unknown charge, processing error) */
  paymentWebhookFailures: "PaymentWebhookFailures",
  /** a Web Push request the push service accepted (docs/adr/0097) */
  pushSent: "PushSent",
  /** a Web Push request refused (4xx but 404/410), answered 429/5xx or unanswered (a gone device is not one); an alarm watches it */
  pushFailures: "PushFailures",
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];
