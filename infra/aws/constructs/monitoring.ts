import { Duration, Stack } from "aws-cdk-lib";
import type { HttpApi } from "aws-cdk-lib/aws-apigatewayv2";
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  type IMetric,
  TextWidget,
  TreatMissingData,
} from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { FargateService } from "aws-cdk-lib/aws-ecs";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { Queue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { METRIC, METRICS_SERVICE, metricsNamespace } from "@atende/shared/contracts/metric-names";
import type { QueueKey } from "@atende/shared/contracts/queue-names";
import { stageOf } from "./stage";

export interface MonitoringProps {
  /** where the alarms are e-mailed (context `alarmEmail`); without it the topic exists with no subscriber */
  readonly alarmEmail?: string;
  /** every Lambda of the product, by a short name used in alarm names */
  readonly functions: Record<string, IFunction>;
  readonly deadLetters: Partial<Record<QueueKey, Queue>>;
  readonly inboundQueue: Queue;
  readonly httpApi: HttpApi;
  readonly table: ITable;
  readonly sessionHost: FargateService;
}

/** Thresholds of the alarms (docs/operations.md explains each one). */
export const ALARM_THRESHOLDS = {
  api5xxPercent: 5,
  apiP99Ms: 5000,
  inboundOldestSeconds: 60,
  webSocketDeliveryFailures: 10,
  cloudApiSignatureFailures: 5,
  metaSignatureFailures: 5,
  telegramSecretFailures: 5,
  paymentWebhookFailures: 1,
  /** Baileys sockets closed with 500 for the third time in a row or more (each such close counts one), in 5 minutes */
  badSessionCloses: 1,
  /** numbers WhatsApp walled behind a passkey while linking, in an hour (one is a customer's case; several, a rollout) */
  passkeyRequired: 3,
  /** Web Push requests the push services refused or did not answer, in 5 minutes (docs/adr/0097) */
  pushFailures: 20,
  /** sends a channel's provider refused in 5 minutes (per channel: ChannelSendFailures by provider) */
  channelSendFailures: 10,
} as const;

/** The channels whose sends are watched one by one (the `provider` dimension of ChannelSendFailures). */
export const WATCHED_CHANNELS = ["cloud-api", "messenger", "instagram", "telegram"] as const;

/**
 * Alarms (all to one SNS topic) and one dashboard per stage: the figures an operator needs to know the
 * product works. Alarm names start with `Atende-<stage>-` and match the runbooks in docs/operations.md.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stage = stageOf(this).name;
    const prefix = `Atende-${stage}`;
    this.topic = new Topic(this, "AlarmTopic", { displayName: `${prefix} alarms`, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const custom = (metricName: string, statistic = "Sum", period = Duration.minutes(5)) =>
      new Metric({ namespace: metricsNamespace(stage), metricName, dimensionsMap: { service: METRICS_SERVICE }, statistic, period });
    const alarm = (name: string, description: string, metric: IMetric, threshold: number, opts: { periods?: number; missing?: TreatMissingData; below?: boolean } = {}) => {
      const created = new Alarm(this, name, {
        alarmName: `${prefix}-${name}`,
        alarmDescription: `${description} Runbook: docs/operations.md#${name.toLowerCase()}`,
        metric,
        threshold,
        evaluationPeriods: opts.periods ?? 1,
        comparisonOperator: opts.below ? ComparisonOperator.LESS_THAN_THRESHOLD : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: opts.missing ?? TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    // Dead-letter queues: any message there is work that failed every retry.
    for (const [key, queue] of Object.entries(props.deadLetters)) {
      alarm(`DeadLetter-${key}`, `The ${key} dead-letter queue holds messages.`, queue.metricApproximateNumberOfMessagesVisible({ statistic: "Maximum", period: Duration.minutes(1) }), 1);
    }
    // Every Lambda: errors and throttles.
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`LambdaErrors-${name}`, `The ${name} Lambda failed invocations.`, fn.metricErrors({ period: Duration.minutes(5) }), 1);
      alarm(`LambdaThrottles-${name}`, `The ${name} Lambda was throttled.`, fn.metricThrottles({ period: Duration.minutes(5) }), 1);
    }
    // The HTTP API: share of 5xx answers and p99 latency.
    const requests = props.httpApi.metricCount({ period: Duration.minutes(5) });
    const serverErrors = props.httpApi.metricServerError({ period: Duration.minutes(5) });
    const api5xxRate = new MathExpression({ expression: "IF(requests > 0, 100 * errors / requests, 0)", usingMetrics: { requests, errors: serverErrors }, label: "API 5xx %", period: Duration.minutes(5) });
    const apiP99 = props.httpApi.metricLatency({ statistic: "p99", period: Duration.minutes(5) });
    alarm("Api5xxRate", `More than ${ALARM_THRESHOLDS.api5xxPercent}% of API requests answered 5xx.`, api5xxRate, ALARM_THRESHOLDS.api5xxPercent);
    alarm("ApiLatencyP99", `API p99 latency above ${ALARM_THRESHOLDS.apiP99Ms} ms for 15 minutes.`, apiP99, ALARM_THRESHOLDS.apiP99Ms, { periods: 3 });
    // Inbound: customers' messages wait.
    const inboundAge = props.inboundQueue.metricApproximateAgeOfOldestMessage({ statistic: "Maximum", period: Duration.minutes(1) });
    alarm("InboundQueueAge", `The oldest inbound message waited more than ${ALARM_THRESHOLDS.inboundOldestSeconds} s.`, inboundAge, ALARM_THRESHOLDS.inboundOldestSeconds, { periods: 2 });
    // Realtime: posts to browsers' connections that failed.
    const wsFailures = custom(METRIC.webSocketDeliveryFailures);
    alarm("WebSocketDeliveryFailures", "Posts to WebSocket connections failed.", wsFailures, ALARM_THRESHOLDS.webSocketDeliveryFailures);
    // DynamoDB: throttled reads or writes (on-demand tables throttle past their previous peak doubling).
    const throttles = new MathExpression({
      expression: "reads + writes",
      usingMetrics: {
        reads: props.table.metric("ReadThrottleEvents", { statistic: "Sum", period: Duration.minutes(5) }),
        writes: props.table.metric("WriteThrottleEvents", { statistic: "Sum", period: Duration.minutes(5) }),
      },
      label: "DynamoDB throttle events",
      period: Duration.minutes(5),
    });
    alarm("DynamoDbThrottles", "DynamoDB throttled requests.", throttles, 1);
    // Session host: the lease heartbeat stopped (missing data is the signal), or the service runs fewer tasks than desired.
    const leaseRenewals = custom(METRIC.sessionLeaseRenewals, "Sum", Duration.minutes(1));
    alarm("SessionHostLeases", "The session host renewed no lease for 2 minutes.", leaseRenewals, 1, { periods: 2, missing: TreatMissingData.BREACHING, below: true });
    const runningTasks = new Metric({
      namespace: "ECS/ContainerInsights",
      metricName: "RunningTaskCount",
      dimensionsMap: { ClusterName: props.sessionHost.cluster.clusterName, ServiceName: props.sessionHost.serviceName },
      statistic: "Minimum",
      period: Duration.minutes(1),
    });
    const minTasks = stageOf(this).sessionHostTasks.min;
    alarm("SessionHostTasks", `The session host service runs fewer tasks than its minimum (${minTasks}).`, runningTasks, minTasks, { periods: 3, missing: TreatMissingData.BREACHING, below: true });
    // Session hosts: connections that should run but no host has room for (WAITING_CAPACITY) for 3 minutes.
    const waitingCapacity = custom(METRIC.sessionsWaitingCapacity, "Maximum", Duration.minutes(1));
    alarm("SessionHostWaitingCapacity", "Connections wait for a session host with room (WAITING_CAPACITY).", waitingCapacity, 1, { periods: 3 });
    // Session hosts: WhatsApp keeps closing a session with 500 (bad session: backed off, never cleared, ADR 0014),
    // and numbers that WhatsApp asks for a passkey while linking (PASSKEY_REQUIRED, ADR 0076).
    const badSessionCloses = custom(METRIC.badSessionCloses);
    alarm("SessionHostBadSessionCloses", "WhatsApp closed a session with 500 three times in a row or more (backing off, auth kept).", badSessionCloses, ALARM_THRESHOLDS.badSessionCloses);
    const passkeyRequired = custom(METRIC.passkeyRequired, "Sum", Duration.hours(1));
    alarm("SessionHostPasskeyRequired", `${ALARM_THRESHOLDS.passkeyRequired} or more numbers hit WhatsApp's passkey gate while linking in an hour (PASSKEY_REQUIRED).`, passkeyRequired, ALARM_THRESHOLDS.passkeyRequired);
    // Webhooks.
    const signatureFailures = custom(METRIC.cloudApiSignatureFailures);
    alarm("CloudApiSignatureFailures", "Meta Cloud API webhook calls with a wrong signature.", signatureFailures, ALARM_THRESHOLDS.cloudApiSignatureFailures);
    alarm("MetaSignatureFailures", "Messenger / Instagram webhook calls with a wrong signature.", custom(METRIC.metaSignatureFailures), ALARM_THRESHOLDS.metaSignatureFailures);
    const telegramSecretFailures = custom(METRIC.telegramSecretFailures);
    alarm("TelegramSecretFailures", "Telegram webhook calls without the connection's secret token.", telegramSecretFailures, ALARM_THRESHOLDS.telegramSecretFailures);
    // Channels: each one's refused sends (Meta's or Telegram's error, the window closed ...), alarmed one by one.
    const channelMetric = (metricName: string, provider: string, label?: string) =>
      new Metric({ namespace: metricsNamespace(stage), metricName, dimensionsMap: { service: METRICS_SERVICE, provider }, statistic: "Sum", period: Duration.minutes(5), ...(label ? { label } : {}) });
    for (const provider of WATCHED_CHANNELS) {
      alarm(`SendFailures-${provider}`, `Sends refused by the ${provider} channel's provider.`, channelMetric(METRIC.channelSendFailures, provider), ALARM_THRESHOLDS.channelSendFailures);
    }
    const paymentFailures = custom(METRIC.paymentWebhookFailures);
    alarm("PaymentWebhookFailures", "Payment notifications refused or failed.", paymentFailures, ALARM_THRESHOLDS.paymentWebhookFailures);
    // Web Push from the jobs Lambda (docs/adr/0097): refused, 429/5xx or unreachable push services (gone devices are not failures)
    alarm("PushFailures", "Web Push requests refused by the push services or not answered.", custom(METRIC.pushFailures), ALARM_THRESHOLDS.pushFailures);

    // The dashboard: the same figures, plus the product's own counters by dimension.
    const search = (metricName: string, dimension: string, statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${metricsNamespace(stage)},service,${dimension}} MetricName="${metricName}"', '${statistic}', 300)`,
        label,
        period: Duration.minutes(5),
      });
    const fns = Object.entries(props.functions);
    const region = Stack.of(this).region;
    this.dashboard = new Dashboard(this, "Dashboard", { dashboardName: prefix });
    this.dashboard.addWidgets(new TextWidget({ markdown: `# ${prefix}\nAlarms and runbooks: docs/operations.md (region ${region})`, width: 24, height: 2 }));
    this.dashboard.addWidgets(
      new GraphWidget({ title: "API requests and 5xx", left: [requests, serverErrors], right: [api5xxRate], width: 8 }),
      new GraphWidget({ title: "API latency p99 (ms)", left: [apiP99], width: 8 }),
      new GraphWidget({ title: "Ticket list latency (ms, p50/p99)", left: [custom(METRIC.ticketListLatency, "p50"), custom(METRIC.ticketListLatency, "p99")], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: "Lambda errors", left: fns.map(([name, fn]) => fn.metricErrors({ label: name, period: Duration.minutes(5) })), width: 8 }),
      new GraphWidget({ title: "Lambda throttles", left: fns.map(([name, fn]) => fn.metricThrottles({ label: name, period: Duration.minutes(5) })), width: 8 }),
      new GraphWidget({ title: "Lambda duration p99 (ms)", left: fns.map(([name, fn]) => fn.metricDuration({ label: name, statistic: "p99", period: Duration.minutes(5) })), width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: "Dead-letter queues (messages)",
        left: Object.entries(props.deadLetters).map(([key, q]) => q.metricApproximateNumberOfMessagesVisible({ label: key, statistic: "Maximum", period: Duration.minutes(1) })),
        width: 8,
      }),
      new GraphWidget({ title: "Inbound oldest message (s) and age at consumption (ms)", left: [inboundAge], right: [search(METRIC.queueAge, "queue", "Maximum", "age at consumption")], width: 8 }),
      new GraphWidget({ title: "DynamoDB throttles", left: [throttles], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: "Messages in / out by provider", left: [search(METRIC.messagesIn, "provider", "Sum", "in")], right: [search(METRIC.messagesOut, "provider", "Sum", "out")], width: 8 }),
      new GraphWidget({ title: "Send failures by code", left: [search(METRIC.sendFailures, "code", "Sum", "failures")], width: 8 }),
      new GraphWidget({
        title: "Assignments (by mode), bot answers (by kind), handovers (by reason)",
        left: [search(METRIC.assignments, "mode", "Sum", "assignments"), search(METRIC.botAnswers, "kind", "Sum", "bot answers")],
        right: [search(METRIC.handovers, "reason", "Sum", "handovers")],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: "Session host: lease renewals and running tasks", left: [leaseRenewals], right: [runningTasks], width: 8 }),
      new GraphWidget({ title: "WebSocket delivery failures", left: [wsFailures], width: 8 }),
      new GraphWidget({ title: "Webhook failures (Cloud API signatures, payments)", left: [signatureFailures, paymentFailures], width: 8 }),
    );
    // the channels beyond WhatsApp: messages in / out, refused webhook calls and refused sends, per channel
    const channels = ["messenger", "instagram", "telegram", "webchat"];
    this.dashboard.addWidgets(
      new GraphWidget({ title: "Channels: messages in / out", left: channels.map((p) => channelMetric(METRIC.messagesIn, p, `${p} in`)), right: channels.map((p) => channelMetric(METRIC.messagesOut, p, `${p} out`)), width: 8 }),
      new GraphWidget({ title: "Channels: signature / secret failures", left: [custom(METRIC.metaSignatureFailures), telegramSecretFailures], width: 8 }),
      new GraphWidget({ title: "Channels: send failures", left: WATCHED_CHANNELS.map((p) => channelMetric(METRIC.channelSendFailures, p, p)), width: 8 }),
    );
  }
}
