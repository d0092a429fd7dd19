import { App } from "aws-cdk-lib";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { QUEUES, deadLetterName } from "@atende/shared/contracts/queue-names";
import { METRIC, METRICS_SERVICE, metricsNamespace } from "@atende/shared/contracts/metric-names";
import { AtendeStack } from "../stacks/atende.stack";
import { ALARM_THRESHOLDS } from "../constructs/monitoring";
import { applyNagChecks } from "../stacks/nag";
import type { StageName } from "../constructs/stage";
import { functionId, queueId, resourcesOfType, synthTestStack } from "./synth-test-stack";

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const synth = (stage: StageName, jobs = false) => {
  const result = synthTestStack({ stage, alarmEmail: "ops@example.com", ...(jobs ? { jobsHandlerEntry: "functions/src/handlers/jobs.ts" } : {}) });
  outdirs.push(result.outdir);
  return result.template;
};
type Alarm = { Properties: { AlarmName: string; MetricName?: string; Namespace?: string; Dimensions?: { Name: string; Value: unknown }[]; AlarmActions: unknown[]; Metrics?: unknown[] } };
const alarms = (template: Template) => resourcesOfType(template, "AWS::CloudWatch::Alarm").map(([, a]) => a as unknown as Alarm);

describe("alarms", () => {
  const template = synth("prod", true);

  it("sends every alarm to the SNS topic, which mails the configured address", () => {
    const topics = resourcesOfType(template, "AWS::SNS::Topic");
    expect(topics).toHaveLength(1);
    template.hasResourceProperties("AWS::SNS::Subscription", { Protocol: "email", Endpoint: "ops@example.com" });
    for (const a of alarms(template)) expect(a.Properties.AlarmActions, a.Properties.AlarmName).toEqual([{ Ref: topics[0]![0] }]);
  });

  it("has one alarm per dead-letter queue, on its visible messages", () => {
    for (const name of Object.values(QUEUES)) {
      const dlq = queueId(template, deadLetterName(name));
      const found = alarms(template).filter(
        (a) => a.Properties.MetricName === "ApproximateNumberOfMessagesVisible" && JSON.stringify(a.Properties.Dimensions).includes(`"${dlq}"`),
      );
      expect(found, name).toHaveLength(1);
    }
  });

  it("has an errors and a throttles alarm for every Lambda of the product (api, Cloud API webhook, Meta webhook, Telegram webhook, ws, tick, inbound, jobs)", () => {
    const functions = resourcesOfType(template, "AWS::Lambda::Function").filter(([, r]) => r.Properties.Runtime === "nodejs22.x");
    expect(functions).toHaveLength(8);
    for (const [id] of functions) {
      for (const metric of ["Errors", "Throttles"]) {
        const found = alarms(template).filter((a) => a.Properties.MetricName === metric && JSON.stringify(a.Properties.Dimensions) === JSON.stringify([{ Name: "FunctionName", Value: { Ref: id } }]));
        expect(found, `${id} ${metric}`).toHaveLength(1);
      }
    }
  });

  it("watches the API, the inbound queue age, the table, the session host and the custom metrics", () => {
    const names = alarms(template).map((a) => a.Properties.AlarmName);
    for (const name of ["Api5xxRate", "ApiLatencyP99", "InboundQueueAge", "DynamoDbThrottles", "SessionHostLeases", "SessionHostTasks", "WebSocketDeliveryFailures", "CloudApiSignatureFailures", "MetaSignatureFailures", "PaymentWebhookFailures"]) {
      expect(names).toContain(`Atende-prod-${name}`);
    }
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-InboundQueueAge", MetricName: "ApproximateAgeOfOldestMessage", Threshold: 60 });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      AlarmName: "Atende-prod-SessionHostLeases",
      Namespace: metricsNamespace("prod"),
      MetricName: METRIC.sessionLeaseRenewals,
      ComparisonOperator: "LessThanThreshold",
      TreatMissingData: "breaching",
      EvaluationPeriods: 2,
      Period: 60,
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-CloudApiSignatureFailures", MetricName: METRIC.cloudApiSignatureFailures });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-MetaSignatureFailures", MetricName: METRIC.metaSignatureFailures });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-TelegramSecretFailures", MetricName: METRIC.telegramSecretFailures });
    // Web Push from the jobs Lambda (docs/adr/0097): it has the VAPID secret (a Secrets Manager reference) and the alarm watches its failures
    const jobsEnv = template.toJSON().Resources[functionId(template, "Atende jobs queue consumer")].Properties.Environment.Variables;
    expect(JSON.stringify(jobsEnv.VAPID_SECRET)).toContain("{{resolve:secretsmanager:");
    expect(JSON.stringify(jobsEnv.VAPID_SECRET)).toContain("VapidSecret");
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-PushFailures", Namespace: metricsNamespace("prod"), MetricName: METRIC.pushFailures, Threshold: 20 });
    // each channel's refused sends, by the provider dimension
    for (const provider of ["cloud-api", "messenger", "instagram", "telegram"]) {
      template.hasResourceProperties("AWS::CloudWatch::Alarm", {
        AlarmName: `Atende-prod-SendFailures-${provider}`,
        Namespace: metricsNamespace("prod"),
        MetricName: METRIC.channelSendFailures,
        Dimensions: Match.arrayWith([{ Name: "provider", Value: provider }]),
        Threshold: ALARM_THRESHOLDS.channelSendFailures,
      });
    }
    // the fleet: fewer tasks than prod's minimum of 2; connections waiting for a host with room
    template.hasResourceProperties("AWS::CloudWatch::Alarm", { AlarmName: "Atende-prod-SessionHostTasks", Threshold: 2, ComparisonOperator: "LessThanThreshold" });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      AlarmName: "Atende-prod-SessionHostWaitingCapacity",
      Namespace: metricsNamespace("prod"),
      MetricName: METRIC.sessionsWaitingCapacity,
      Statistic: "Maximum",
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      EvaluationPeriods: 3,
    });
    // three close-code 500s in a row (each such close counts one), and numbers walled by WhatsApp's passkey gate
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      AlarmName: "Atende-prod-SessionHostBadSessionCloses",
      Namespace: metricsNamespace("prod"),
      MetricName: METRIC.badSessionCloses,
      Dimensions: [{ Name: "service", Value: METRICS_SERVICE }],
      Statistic: "Sum",
      Period: 300,
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      TreatMissingData: "notBreaching",
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      AlarmName: "Atende-prod-SessionHostPasskeyRequired",
      Namespace: metricsNamespace("prod"),
      MetricName: METRIC.passkeyRequired,
      Dimensions: [{ Name: "service", Value: METRICS_SERVICE }],
      Statistic: "Sum",
      Period: 3600,
      Threshold: 3,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      TreatMissingData: "notBreaching",
    });
  });

  it("has a dashboard named after the stage with the same figures", () => {
    const dashboards = resourcesOfType(template, "AWS::CloudWatch::Dashboard");
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]![1].Properties.DashboardName).toBe("Atende-prod");
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const m of ["ApproximateNumberOfMessagesVisible", "Errors", "Throttles", "Latency", METRIC.messagesIn, METRIC.sendFailures, METRIC.ticketListLatency, METRIC.sessionLeaseRenewals, "RunningTaskCount"]) {
      expect(body, m).toContain(m);
    }
  });

  it("turns on X-Ray tracing and the Powertools settings on every Lambda", () => {
    for (const [, fn] of resourcesOfType(template, "AWS::Lambda::Function").filter(([, r]) => r.Properties.Runtime === "nodejs22.x")) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: "Active" });
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({ POWERTOOLS_METRICS_NAMESPACE: "Atende/prod", POWERTOOLS_SERVICE_NAME: "atende" });
    }
  });
});

describe("stages", () => {
  it("prod keeps the table (PITR, deletion protection) and its logs for a year; staging lets them go", () => {
    const prod = synth("prod");
    prod.hasResource("AWS::DynamoDB::Table", { DeletionPolicy: "Retain", Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true }) });
    for (const [, g] of resourcesOfType(prod, "AWS::Logs::LogGroup")) {
      expect(g.DeletionPolicy).toBe("Retain");
      expect(g.Properties.RetentionInDays).toBe(365);
    }
    const staging = synth("staging");
    staging.hasResource("AWS::DynamoDB::Table", { DeletionPolicy: "Delete", Properties: Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } }) });
    for (const [, g] of resourcesOfType(staging, "AWS::Logs::LogGroup")) {
      expect(g.DeletionPolicy).toBe("Delete");
      expect(g.Properties.RetentionInDays).toBe(14);
    }
    expect(staging.toJSON().Resources).toBeDefined();
    staging.hasResourceProperties("AWS::CloudWatch::Dashboard", { DashboardName: "Atende-staging" });
  });

  it("tags every taggable resource with the stage for cost allocation", () => {
    const staging = synth("staging");
    staging.hasResourceProperties("AWS::DynamoDB::Table", { Tags: Match.arrayWith([{ Key: "atende:stage", Value: "staging" }]) });
    staging.hasResourceProperties("AWS::SQS::Queue", { Tags: Match.arrayWith([{ Key: "atende:stage", Value: "staging" }]) });
  });
});

describe("cdk-nag (AwsSolutions)", () => {
  for (const stage of ["prod", "staging"] as const) {
    it(`finds nothing unsuppressed in ${stage}`, () => {
      const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
      const stack = new AtendeStack(app, `Nag${stage}`, { mailFrom: "no-reply@example.com", appVersion: "9.9.9", stage });
      applyNagChecks(stack);
      app.synth();
      const annotations = Annotations.fromStack(stack);
      const findings = [...annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")), ...annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"))];
      expect(findings.map((f) => `${f.id}: ${String(f.entry.data).slice(0, 120)}`)).toEqual([]);
    });
  }

  it("records a reason with every suppression, and a suppressed rule really is reported without it", async () => {
    const { NAG_SUPPRESSIONS } = await import("../stacks/nag");
    for (const s of NAG_SUPPRESSIONS) expect(s.reason.length, s.id).toBeGreaterThan(40);
    const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
    const stack = new AtendeStack(app, "NagBare", { mailFrom: "no-reply@example.com", appVersion: "9.9.9" });
    const { Aspects } = await import("aws-cdk-lib");
    const { AwsSolutionsChecks } = await import("cdk-nag");
    Aspects.of(stack).add(new AwsSolutionsChecks());
    app.synth();
    expect(Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")).length).toBeGreaterThan(0);
  });
});

describe("session host health", () => {
  it("has an ECS container health check on its /health endpoint and may put only its namespace's metrics", () => {
    const template = synth("prod");
    const [, task] = resourcesOfType(template, "AWS::ECS::TaskDefinition")[0]!;
    const container = (task.Properties.ContainerDefinitions as { HealthCheck: { Command: string[] }; Environment: { Name: string; Value: string }[] }[])[0]!;
    expect(container.HealthCheck.Command.join(" ")).toContain("http://127.0.0.1:8080/health");
    expect(container.Environment).toEqual(expect.arrayContaining([{ Name: "HEALTH_PORT", Value: "8080" }, { Name: "POWERTOOLS_METRICS_NAMESPACE", Value: "Atende/prod" }]));
    const statements = resourcesOfType(template, "AWS::IAM::Policy").flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: { Action: unknown; Condition?: unknown }[] }).Statement);
    expect(statements).toContainEqual(expect.objectContaining({ Action: "cloudwatch:PutMetricData", Condition: { StringEquals: { "cloudwatch:namespace": "Atende/prod" } } }));
  });
});
