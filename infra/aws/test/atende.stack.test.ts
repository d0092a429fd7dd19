import { Match, type Template } from "aws-cdk-lib/assertions";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUES, deadLetterName, type QueueKey } from "@atende/shared/contracts/queue-names";
import { TABLE_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";
import { SPA_FALLBACK_CODE, socketIoRewriteCode } from "../constructs/web";
import { WEBSOCKET_STAGE } from "../constructs/realtime";
import { META_WEBHOOK_CONCURRENCY, WEBCHAT_ROUTE_KEY, WEBCHAT_ROUTE_THROTTLE } from "../constructs/api";
import { METRIC, metricsNamespace } from "@atende/shared/contracts/metric-names";
import { SESSION_HOST_CAPACITY_DEFAULT } from "@atende/shared/contracts/http/session-hosts";
import { functionId, queueId, resourcesOfType, stagedAssetFiles, synthTestStack } from "./synth-test-stack";

// Managed CloudFront policies (fixed ids, documented by AWS).
const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

let template: Template;
let outdir: string;
// Synthesis loads most of aws-cdk-lib: seconds on a busy machine, beyond the default hook timeout.
beforeAll(() => {
  ({ template, outdir } = synthTestStack());
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Every IAM statement attached to the role of a Lambda (or any resource with a Role property). */
const statementsOfRole = (roleId: string) =>
  resourcesOfType(template, "AWS::IAM::Policy")
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(`"${roleId}"`))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
const roleOfFunction = (fnId: string) => (template.toJSON().Resources[fnId].Properties.Role as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
const actionsOf = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat());

describe("table", () => {
  it("has the keys, indexes and TTL of the shared table definition, billed per request, with PITR, retained", () => {
    const expectedAttributes = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...TABLE_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
    template.resourceCountIs("AWS::DynamoDB::Table", 1);
    template.hasResource("AWS::DynamoDB::Table", {
      DeletionPolicy: "Retain",
      Properties: {
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: "HASH" },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: "RANGE" },
        ],
        AttributeDefinitions: Match.arrayEquals(expectedAttributes.map((name) => ({ AttributeName: name, AttributeType: "S" }))),
        GlobalSecondaryIndexes: TABLE_INDEXES.map((i) => ({
          IndexName: i.indexName,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: "HASH" },
            { AttributeName: i.sortKey, KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        })),
        BillingMode: "PAY_PER_REQUEST",
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      },
    });
  });
});

describe("lambdas", () => {
  const descriptions = ["Atende HTTP API", "Atende WebSocket routes", "Atende minute tick", "Atende inbound.fifo consumer"];

  it("runs api, ws, tick and inbound on Node 22, arm64, with the functions' configuration", () => {
    for (const description of descriptions) {
      const fn = template.toJSON().Resources[functionId(template, description)].Properties;
      expect(fn.Runtime, description).toBe("nodejs22.x");
      expect(fn.Architectures, description).toEqual(["arm64"]);
      expect(fn.Handler, description).toBe("index.handler");
      expect(Object.keys(fn.Environment.Variables), description).toEqual(
        expect.arrayContaining(["TABLE_NAME", "JWT_SECRET", "JWT_REFRESH_SECRET", "WS_MANAGEMENT_ENDPOINT", "QUEUE_URL_INBOUND", "QUEUE_URL_OUTBOUND", "QUEUE_URL_JOBS", "MEDIA_BUCKET", "MAIL_FROM", "APP_VERSION"]),
      );
    }
    // api, ws, tick, inbound, the Cloud API webhook, the Meta (Messenger / Instagram) and the Telegram webhooks
    expect(resourcesOfType(template, "AWS::Lambda::Function").filter(([, r]) => r.Properties.Runtime === "nodejs22.x")).toHaveLength(7);
  });

  it("takes the JWT keys, the origin-verify value, the payments webhook secret, the erasure hash key and the VAPID secret from generated secrets (only references in the template)", () => {
    const secrets = resourcesOfType(template, "AWS::SecretsManager::Secret");
    expect(secrets).toHaveLength(6);
    for (const [, secret] of secrets) expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const env = template.toJSON().Resources[functionId(template, "Atende HTTP API")].Properties.Environment.Variables;
    const secretIds = secrets.map(([id]) => id);
    for (const key of ["JWT_SECRET", "JWT_REFRESH_SECRET", "ORIGIN_VERIFY_SECRET", "PAYMENTS_WEBHOOK_SECRET", "ERASURE_HASH_SECRET", "VAPID_SECRET"]) {
      const reference = JSON.stringify(env[key]);
      expect(reference).toContain("{{resolve:secretsmanager:");
      expect(secretIds.some((id) => reference.includes(`"${id}"`))).toBe(true);
    }
    expect(JSON.stringify(env.JWT_SECRET)).not.toBe(JSON.stringify(env.JWT_REFRESH_SECRET));
  });

  it("turns the outbound guard on in every Lambda (docs/adr/0062: no call to loopback, private or metadata addresses)", () => {
    const lambdas = resourcesOfType(template, "AWS::Lambda::Function").filter(([, r]) => r.Properties.Runtime === "nodejs22.x");
    expect(lambdas.length).toBeGreaterThanOrEqual(5);
    for (const [id, r] of lambdas) expect((r.Properties.Environment as { Variables: Record<string, string> }).Variables.OUTBOUND_GUARD, id).toBe("on");
  });

  it("points WS_MANAGEMENT_ENDPOINT at the WebSocket stage's https callback URL", () => {
    const [wsApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "WEBSOCKET")!;
    const endpoint = JSON.stringify(template.toJSON().Resources[functionId(template, "Atende minute tick")].Properties.Environment.Variables.WS_MANAGEMENT_ENDPOINT);
    expect(endpoint).toContain('"https://"');
    expect(endpoint).toContain(`"${wsApiId}"`);
    expect(endpoint).toContain('"/live"');
  });

  it("lets every Lambda post to WebSocket connections; the WebSocket routes send to the jobs queue only, the workers to the queues and mail", () => {
    for (const description of descriptions) {
      const actions = actionsOf(statementsOfRole(roleOfFunction(functionId(template, description))));
      expect(actions, description).toContain("execute-api:ManageConnections");
      expect(actions, description).toContain("dynamodb:PutItem");
    }
    const wsStatements = statementsOfRole(roleOfFunction(functionId(template, "Atende WebSocket routes")));
    const wsActions = actionsOf(wsStatements);
    // the ping's offline check, the Socket.IO open packet, the agent status checks (ADR 0044): the jobs queue, nothing else
    const wsSqs = wsStatements.filter((s) => [s.Action].flat().includes("sqs:SendMessage"));
    expect(wsSqs).toHaveLength(1);
    const [jobsQueueId] = resourcesOfType(template, "AWS::SQS::Queue").find(([, r]) => String(r.Properties.QueueName ?? "").includes("jobs") && !String(r.Properties.QueueName).includes("dlq"))!;
    expect(JSON.stringify((wsSqs[0] as { Resource: unknown }).Resource)).toContain(`"${jobsQueueId}"`);
    expect(wsActions).not.toContain("ses:SendEmail");
    const apiStatements = statementsOfRole(roleOfFunction(functionId(template, "Atende HTTP API")));
    expect(actionsOf(apiStatements)).toEqual(expect.arrayContaining(["sqs:SendMessage", "ses:SendEmail", "s3:PutObject"]));
    expect(apiStatements).toContainEqual(expect.objectContaining({ Action: ["ses:SendEmail", "ses:SendRawEmail"], Condition: { StringEquals: { "ses:FromAddress": "no-reply@example.com" } } }));
    const manageConnections = apiStatements.find((s) => s.Action === "execute-api:ManageConnections")!;
    expect(JSON.stringify(manageConnections.Resource)).toContain("/*/*/@connections/*");
  });
});

describe("HTTP API", () => {
  it("routes ANY /api and ANY /api/{proxy+} to the api Lambda (payload v2)", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::Api", { ProtocolType: "HTTP" });
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    const routes = resourcesOfType(template, "AWS::ApiGatewayV2::Route").filter(([, r]) => JSON.stringify(r.Properties.ApiId).includes(httpApiId));
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual([
      "ANY /api",
      "ANY /api/webchat/{proxy+}",
      "ANY /api/{proxy+}",
      "GET /api/channels/cloud-api/webhook/{hookId}",
      "GET /api/channels/meta/webhook/{hookId}",
      "POST /api/channels/cloud-api/webhook/{hookId}",
      "POST /api/channels/meta/webhook/{hookId}",
      "POST /api/channels/telegram/webhook/{hookId}",
    ]);
    template.hasResourceProperties("AWS::ApiGatewayV2::Integration", {
      ApiId: { Ref: httpApiId },
      IntegrationType: "AWS_PROXY",
      PayloadFormatVersion: "2.0",
      IntegrationUri: { "Fn::GetAtt": [functionId(template, "Atende HTTP API"), "Arn"] },
    });
  });
});

describe("Cloud API webhook", () => {
  it("is its own Lambda behind GET/POST /api/channels/cloud-api/webhook/{hookId}: reads the table, sends to inbound.fifo, decrypts with the secrets key, nothing else", () => {
    const fnId = functionId(template, "Atende Cloud API webhook (verify and enqueue)");
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    template.hasResourceProperties("AWS::ApiGatewayV2::Integration", { ApiId: { Ref: httpApiId }, IntegrationUri: { "Fn::GetAtt": [fnId, "Arn"] } });
    const actions = actionsOf(statementsOfRole(roleOfFunction(fnId)));
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:GetItem", "sqs:SendMessage", "kms:Decrypt"]));
    expect(actions.filter((a) => a.startsWith("dynamodb:") && /Put|Update|Delete|Write/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.startsWith("s3:") || a.startsWith("ses:") || a === "kms:Encrypt")).toEqual([]);
    template.hasResourceProperties("AWS::KMS::Key", { EnableKeyRotation: true });
  });
});

describe("Telegram webhook", () => {
  it("is its own Lambda behind POST /api/channels/telegram/webhook/{hookId} with its own concurrency cap: reads the table, puts media, sends to inbound.fifo, decrypts", () => {
    const fnId = functionId(template, "Atende Telegram webhook (secret token, files, enqueue)");
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    template.hasResourceProperties("AWS::ApiGatewayV2::Integration", { ApiId: { Ref: httpApiId }, IntegrationUri: { "Fn::GetAtt": [fnId, "Arn"] } });
    expect(template.toJSON().Resources[fnId].Properties.ReservedConcurrentExecutions).toBe(20);
    const actions = actionsOf(statementsOfRole(roleOfFunction(fnId)));
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:GetItem", "sqs:SendMessage", "kms:Decrypt", "s3:PutObject"]));
    expect(actions.filter((a) => a.startsWith("dynamodb:") && /Put|Update|Delete|Write/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.startsWith("ses:") || a === "kms:Encrypt" || a === "s3:DeleteObject*")).toEqual([]);
  });
});

describe("Meta (Messenger / Instagram) webhook", () => {
  it("is its own Lambda behind GET/POST /api/channels/meta/webhook/{hookId} with its own concurrency cap: reads the table, sends to inbound.fifo, decrypts, writes nothing", () => {
    const fnId = functionId(template, "Atende Messenger/Instagram webhook (verify and enqueue)");
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    template.hasResourceProperties("AWS::ApiGatewayV2::Integration", { ApiId: { Ref: httpApiId }, IntegrationUri: { "Fn::GetAtt": [fnId, "Arn"] } });
    expect(template.toJSON().Resources[fnId].Properties.ReservedConcurrentExecutions).toBe(META_WEBHOOK_CONCURRENCY);
    const actions = actionsOf(statementsOfRole(roleOfFunction(fnId)));
    expect(actions).toEqual(expect.arrayContaining(["dynamodb:GetItem", "sqs:SendMessage", "kms:Decrypt"]));
    expect(actions.filter((a) => a.startsWith("dynamodb:") && /Put|Update|Delete|Write/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.startsWith("s3:") || a.startsWith("ses:") || a === "kms:Encrypt")).toEqual([]);
  });
});

describe("website chat visitor API", () => {
  it("has its own route /api/webchat/{proxy+} on the API Lambda, throttled by the stage's route settings (after the route exists)", () => {
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    const route = resourcesOfType(template, "AWS::ApiGatewayV2::Route").find(([, r]) => r.Properties.RouteKey === WEBCHAT_ROUTE_KEY);
    expect(route).toBeTruthy();
    const apiIntegration = resourcesOfType(template, "AWS::ApiGatewayV2::Integration").find(([, r]) => JSON.stringify(r.Properties.IntegrationUri).includes(functionId(template, "Atende HTTP API")))!;
    expect(JSON.stringify(route![1].Properties.Target)).toContain(apiIntegration[0]);
    const [, stage] = resourcesOfType(template, "AWS::ApiGatewayV2::Stage").find(([, r]) => JSON.stringify(r.Properties.ApiId).includes(httpApiId))!;
    expect(stage.Properties.RouteSettings).toEqual({ [WEBCHAT_ROUTE_KEY]: { ThrottlingRateLimit: WEBCHAT_ROUTE_THROTTLE.rateLimit, ThrottlingBurstLimit: WEBCHAT_ROUTE_THROTTLE.burstLimit } });
    expect(stage.DependsOn).toEqual(expect.arrayContaining([route![0]]));
  });
});

describe("WebSocket API", () => {
  it("selects routes by body.action and sends $connect, $disconnect and $default to the one ws Lambda", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::Api", { ProtocolType: "WEBSOCKET", RouteSelectionExpression: "$request.body.action" });
    const [wsApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "WEBSOCKET")!;
    const routes = resourcesOfType(template, "AWS::ApiGatewayV2::Route").filter(([, r]) => JSON.stringify(r.Properties.ApiId).includes(wsApiId));
    expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(["$connect", "$default", "$disconnect"]);
    const integrations = resourcesOfType(template, "AWS::ApiGatewayV2::Integration").filter(([, r]) => JSON.stringify(r.Properties.ApiId).includes(wsApiId));
    expect(integrations).toHaveLength(3);
    const wsFn = functionId(template, "Atende WebSocket routes");
    for (const [, integration] of integrations) expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(`"${wsFn}"`);
    template.hasResourceProperties("AWS::ApiGatewayV2::Stage", { ApiId: { Ref: wsApiId }, StageName: "live", AutoDeploy: true });
  });
});

describe("queues", () => {
  it("creates the contract's queues, FIFO where named .fifo, each redriving to its dead-letter queue (outbound after 50 receives: hand-backs)", () => {
    for (const [key, name] of Object.entries(QUEUES) as [QueueKey, string][]) {
      const fifo = name.endsWith(".fifo");
      const queue = template.toJSON().Resources[queueId(template, name)].Properties;
      const deadLetter = template.toJSON().Resources[queueId(template, deadLetterName(name))].Properties;
      expect(queue.FifoQueue, name).toBe(fifo ? true : undefined);
      expect(deadLetter.FifoQueue, name).toBe(fifo ? true : undefined);
      if (fifo) expect(queue.ContentBasedDeduplication, name).toBe(false);
      expect(queue.RedrivePolicy, name).toEqual({
        deadLetterTargetArn: { "Fn::GetAtt": [queueId(template, deadLetterName(name)), "Arn"] },
        maxReceiveCount: key === "outbound" ? 50 : 5,
      });
    }
    template.resourceCountIs("AWS::SQS::Queue", 6);
  });

  it("feeds inbound.fifo to the inbound Lambda with partial batch failures, within the queue's visibility timeout", () => {
    const inboundFn = functionId(template, "Atende inbound.fifo consumer");
    const inboundQueue = queueId(template, QUEUES.inbound);
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: inboundFn },
      EventSourceArn: { "Fn::GetAtt": [inboundQueue, "Arn"] },
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    const resources = template.toJSON().Resources;
    expect(resources[inboundQueue].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(resources[inboundFn].Properties.Timeout);
  });
});

describe("minute tick", () => {
  it("invokes the tick Lambda at rate(1 minute)", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      State: "ENABLED",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [functionId(template, "Atende minute tick"), "Arn"] } })],
    });
  });
});

describe("session host", () => {
  it("runs a fleet of arm64 Fargate tasks with public IPs and no load balancer; deploys start new tasks before old ones drain", () => {
    template.hasResourceProperties("AWS::ECS::Service", {
      LaunchType: "FARGATE",
      DesiredCount: 2,
      DeploymentConfiguration: Match.objectLike({ MinimumHealthyPercent: 100, MaximumPercent: 200 }),
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: "ENABLED" }) },
    });
    template.resourceCountIs("AWS::ElasticLoadBalancingV2::LoadBalancer", 0);
    template.resourceCountIs("AWS::EC2::NatGateway", 0);
    template.hasResourceProperties("AWS::ECS::TaskDefinition", {
      RequiresCompatibilities: ["FARGATE"],
      RuntimePlatform: { CpuArchitecture: "ARM64", OperatingSystemFamily: "LINUX" },
      ContainerDefinitions: [
        Match.objectLike({
          // SIGTERM drains within DRAIN_TIMEOUT_MS (25 s); SIGKILL only after 30 s
          StopTimeout: 30,
          Environment: Match.arrayWith([
            { Name: "TABLE_NAME", Value: Match.anyValue() },
            { Name: "QUEUE_URL_INBOUND", Value: Match.anyValue() },
            { Name: "QUEUE_URL_OUTBOUND", Value: Match.anyValue() },
            { Name: "MEDIA_BUCKET", Value: Match.anyValue() },
            { Name: "SESSION_HOST_CAPACITY", Value: String(SESSION_HOST_CAPACITY_DEFAULT) },
            { Name: "DRAIN_TIMEOUT_MS", Value: "25000" },
          ]),
        }),
      ],
    });
    // each task's identity is its task ARN: no fixed host id shared by two tasks
    const [, taskDefinition] = resourcesOfType(template, "AWS::ECS::TaskDefinition")[0]!;
    expect(JSON.stringify(taskDefinition.Properties.ContainerDefinitions)).not.toMatch(/"(SESSION_)?HOST_ID"/);
    const ingress = resourcesOfType(template, "AWS::EC2::SecurityGroup").flatMap(([, sg]) => (sg.Properties.SecurityGroupIngress as unknown[]) ?? []);
    expect(ingress).toEqual([]);
  });

  it("scales on sessions per host (target tracking), at least 2 tasks in prod", () => {
    template.hasResourceProperties("AWS::ApplicationAutoScaling::ScalableTarget", { ServiceNamespace: "ecs", MinCapacity: 2, MaxCapacity: 20, ScalableDimension: "ecs:service:DesiredCount" });
    template.hasResourceProperties("AWS::ApplicationAutoScaling::ScalingPolicy", {
      PolicyType: "TargetTrackingScaling",
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        TargetValue: Math.round(SESSION_HOST_CAPACITY_DEFAULT * 0.7),
        CustomizedMetricSpecification: Match.objectLike({ MetricName: METRIC.sessionsPerHost, Namespace: metricsNamespace("prod"), Statistic: "Average" }),
      }),
    });
  });

  it("consumes outbound.fifo and sends to inbound.fifo", () => {
    const [, taskDefinition] = resourcesOfType(template, "AWS::ECS::TaskDefinition")[0]!;
    const roleId = (taskDefinition.Properties.TaskRoleArn as { "Fn::GetAtt": [string, string] })["Fn::GetAtt"][0];
    const statements = statementsOfRole(roleId);
    const on = (queueName: string) => statements.filter((s) => JSON.stringify(s.Resource).includes(`"${queueId(template, queueName)}"`)).flatMap((s) => [s.Action].flat());
    expect(on(QUEUES.outbound)).toEqual(expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]));
    expect(on(QUEUES.inbound)).toContain("sqs:SendMessage");
    expect(on(QUEUES.inbound)).not.toContain("sqs:ReceiveMessage");
  });
});

describe("session host image", () => {
  it("stages only the workspace manifests, shared/ and session-host/ as the Docker context (no Docker at synth)", () => {
    const manifest = JSON.parse(readFileSync(join(outdir, "AtendeTest.assets.json"), "utf8")) as {
      dockerImages: Record<string, { source: { directory: string; dockerFile: string; platform: string } }>;
    };
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    const { directory, dockerFile, platform } = images[0]!.source;
    expect(dockerFile).toBe("session-host/Dockerfile");
    expect(platform).toBe("linux/arm64");
    const root = join(outdir, directory);
    const staged = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((path) => statSync(join(root, path)).isFile());
    expect(staged).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json", "session-host/Dockerfile", "session-host/package.json", "shared/package.json", "shared/src/table/table-definition.ts", "functions/package.json", "web/package.json", "infra/package.json"]),
    );
    const unexpected = staged.filter((path) => /(^|\/)(node_modules|dist|\.data|cdk\.out|\.git)\//.test(path) || /^(functions|web|infra)\/(?!package\.json$)/.test(path) || path.endsWith(".test.ts"));
    expect(unexpected).toEqual([]);
  });
});

describe("web", () => {
  it("routes /api/* to the HTTP API uncached with every viewer header but Host, all methods", () => {
    const [httpApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "HTTP")!;
    const [, distribution] = resourcesOfType(template, "AWS::CloudFront::Distribution")[0]!;
    const config = distribution.Properties.DistributionConfig as {
      CacheBehaviors: { PathPattern: string; TargetOriginId: string }[];
      Origins: { Id: string; DomainName: unknown }[];
      DefaultCacheBehavior: { FunctionAssociations: unknown[] };
      CustomErrorResponses?: unknown;
    };
    const api = config.CacheBehaviors.find((b) => b.PathPattern === "/api/*");
    expect(api).toMatchObject({
      AllowedMethods: ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"],
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: "https-only",
    });
    const origin = config.Origins.find((o) => o.Id === api!.TargetOriginId)! as { DomainName: unknown; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] };
    expect(JSON.stringify(origin.DomainName)).toContain(`"${httpApiId}","ApiEndpoint"`);
    // Only CloudFront can call the API: it adds the generated origin-verify secret the API checks.
    const verify = origin.OriginCustomHeaders?.find((h) => h.HeaderName === "x-origin-verify");
    expect(JSON.stringify(verify?.HeaderValue)).toContain("{{resolve:secretsmanager:");
    // The SPA fallback is a viewer-request function on the default behaviour: error responses would also
    // rewrite the API's 403/404 JSON answers into index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([expect.objectContaining({ EventType: "viewer-request" })]);
  });

  it("routes /socket.io/* (the spec's Socket.IO clients) to the WebSocket API's stage, uncached, with the handshake's headers and query", () => {
    const [wsApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "WEBSOCKET")!;
    const [, distribution] = resourcesOfType(template, "AWS::CloudFront::Distribution")[0]!;
    const config = distribution.Properties.DistributionConfig as {
      CacheBehaviors: { PathPattern: string; TargetOriginId: string; FunctionAssociations?: { EventType: string; FunctionARN: unknown }[] }[];
      Origins: { Id: string; DomainName: unknown; CustomOriginConfig?: { OriginProtocolPolicy: string } }[];
    };
    const socketIo = config.CacheBehaviors.find((b) => b.PathPattern === "/socket.io/*");
    expect(socketIo).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: "https-only",
    });
    const origin = config.Origins.find((o) => o.Id === socketIo!.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain(`{"Ref":"${wsApiId}"},".execute-api.`);
    expect(origin.CustomOriginConfig?.OriginProtocolPolicy).toBe("https-only");
    // a viewer-request function sends the handshake to the stage path, keeping the query string
    expect(socketIo!.FunctionAssociations).toHaveLength(1);
    const [fnId] = resourcesOfType(template, "AWS::CloudFront::Function").find(([, f]) => (f.Properties.FunctionConfig as { Comment: string }).Comment.includes("socket.io"))!;
    expect(JSON.stringify(socketIo!.FunctionAssociations![0]!.FunctionARN)).toContain(fnId);
    const rewrite = new Function(`${socketIoRewriteCode(WEBSOCKET_STAGE)}; return handler;`)() as (event: { request: { uri: string; querystring: unknown } }) => {
      uri: string;
      querystring: unknown;
    };
    const query = { EIO: { value: "4" }, transport: { value: "websocket" }, token: { value: "t" } };
    expect(rewrite({ request: { uri: "/socket.io/", querystring: query } })).toEqual({ uri: `/${WEBSOCKET_STAGE}`, querystring: query });
  });

  it("sends the security headers on every behaviour: strict CSP with the WebSocket in connect-src, HSTS, no framing", () => {
    const [, distribution] = resourcesOfType(template, "AWS::CloudFront::Distribution")[0]!;
    const config = distribution.Properties.DistributionConfig as {
      CacheBehaviors: { PathPattern: string; ResponseHeadersPolicyId?: { Ref: string } }[];
      DefaultCacheBehavior: { ResponseHeadersPolicyId?: { Ref: string } };
    };
    const policies = Object.fromEntries(resourcesOfType(template, "AWS::CloudFront::ResponseHeadersPolicy"));
    type Policy = {
      SecurityHeadersConfig: {
        ContentSecurityPolicy: { ContentSecurityPolicy: unknown; Override: boolean };
        ContentTypeOptions: { Override: boolean };
        FrameOptions: { FrameOption: string; Override: boolean };
        ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
        StrictTransportSecurity: { AccessControlMaxAgeSec: number; IncludeSubdomains: boolean; Override: boolean };
      };
      CustomHeadersConfig: { Items: { Header: string; Value: string; Override: boolean }[] };
    };
    const policyOf = (ref?: { Ref: string }) => (policies[ref?.Ref ?? ""]?.Properties.ResponseHeadersPolicyConfig ?? null) as Policy | null;
    const app = policyOf(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
    const api = policyOf(config.CacheBehaviors.find((b) => b.PathPattern === "/api/*")?.ResponseHeadersPolicyId);
    expect(app).not.toBeNull();
    expect(api).not.toBeNull();
    // every other behaviour (the Socket.IO handshake too) carries the API's policy
    for (const b of config.CacheBehaviors) expect(policyOf(b.ResponseHeadersPolicyId), b.PathPattern).toEqual(api);
    for (const p of [app!, api!]) {
      expect(p.SecurityHeadersConfig).toMatchObject({
        ContentTypeOptions: { Override: true },
        FrameOptions: { FrameOption: "DENY", Override: true },
        ReferrerPolicy: { ReferrerPolicy: "strict-origin-when-cross-origin", Override: true },
        StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Override: true },
      });
      const custom = Object.fromEntries(p.CustomHeadersConfig.Items.map((h) => [h.Header, h.Value]));
      expect(custom["permissions-policy"]).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(self\)/);
      expect(custom["cross-origin-opener-policy"]).toBe("same-origin");
    }
    // the app: scripts from our origin only (no inline, no eval), never framed, the realtime URL allowed
    const [realtimeApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "WEBSOCKET")!;
    const csp = JSON.stringify(app!.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(app!.SecurityHeadersConfig.ContentSecurityPolicy.Override).toBe(true);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*('unsafe-inline'|'unsafe-eval')/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/connect-src 'self' wss:\/\//);
    expect(csp).toContain(realtimeApiId);
    // the API: its own CSP is kept (media answers carry a sandbox), the default lets nothing run
    expect(api!.SecurityHeadersConfig.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'; sandbox", Override: false });
  });

  it("serves /index.html for client-side routes and files as they are", () => {
    const fallback = new Function(`${SPA_FALLBACK_CODE}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
    const uriFor = (uri: string) => fallback({ request: { uri } }).uri;
    expect(uriFor("/")).toBe("/index.html");
    expect(uriFor("/tickets/42")).toBe("/index.html");
    expect(uriFor("/login")).toBe("/index.html");
    expect(uriFor("/assets/index-abc123.js")).toBe("/assets/index-abc123.js");
    expect(uriFor("/config.json")).toBe("/config.json");
  });

  it("keeps every bucket private; the web bucket is read by CloudFront only", () => {
    const buckets = resourcesOfType(template, "AWS::S3::Bucket");
    expect(buckets).toHaveLength(2);
    for (const [, bucket] of buckets) {
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    }
    template.resourceCountIs("AWS::CloudFront::OriginAccessControl", 1);
    template.hasResourceProperties("AWS::S3::BucketPolicy", {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: "s3:GetObject", Principal: { Service: "cloudfront.amazonaws.com" }, Condition: { StringEquals: { "AWS:SourceArn": Match.anyValue() } } }),
        ]),
      },
    });
  });

  it("publishes /config.json with the wss:// URL even without a web build", () => {
    const deployments = resourcesOfType(template, "Custom::CDKBucketDeployment");
    expect(deployments).toHaveLength(1);
    const [, entry] = deployments[0]!;
    // The file holds deploy-time markers; the custom resource replaces them with the stage URL's parts.
    const [configJson] = stagedAssetFiles(outdir, "config.json");
    expect(configJson).toMatch(/^\{"wsUrl":"wss:\/\/<<marker:0xbaba:0>>\.execute-api\.<<marker:0xbaba:1>>\.<<marker:0xbaba:2>>\/live"\}$/);
    const [wsApiId] = resourcesOfType(template, "AWS::ApiGatewayV2::Api").find(([, r]) => r.Properties.ProtocolType === "WEBSOCKET")!;
    expect(entry.Properties.SourceMarkers).toEqual([{ "<<marker:0xbaba:0>>": { Ref: wsApiId }, "<<marker:0xbaba:1>>": { Ref: "AWS::Region" }, "<<marker:0xbaba:2>>": { Ref: "AWS::URLSuffix" } }]);
    expect(entry.Properties.Prune).toBe(false);
    expect(entry.Properties.DistributionPaths).toEqual(["/index.html", "/session-boot.js", "/webchat.js", "/config.json"]);
  });
});
