import { Duration } from "aws-cdk-lib";
import { Architecture, Runtime, Tracing } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { METRICS_SERVICE, metricsNamespace } from "@atende/shared/contracts/metric-names";
import type { Construct } from "constructs";
import { LAMBDA_BUNDLING } from "./lambda-bundle";
import { repoPath } from "./repo-paths";
import { stageOf } from "./stage";

export interface AtendeFunctionProps {
  /** absolute path of the handler module (exports `handler`) */
  readonly entry: string;
  readonly description: string;
  readonly environment: Record<string, string>;
  readonly timeout?: Duration;
  readonly memorySize?: number;
  /** a cap on concurrent runs (a webhook's own throttle); absent: the account's pool */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * One Lambda of the functions deployable: Node 22 on arm64, bundled locally by esbuild into one ESM file.
 * The AWS SDK v3 stays external (the Node 22 runtime provides it), everything else is bundled.
 */
export class AtendeFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AtendeFunctionProps) {
    const stage = stageOf(scope);
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: stage.logRetention, removalPolicy: stage.removalPolicy });
    super(scope, id, {
      entry: props.entry,
      handler: "handler",
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      ...(props.reservedConcurrentExecutions ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      logGroup,
      projectRoot: repoPath(),
      depsLockFilePath: repoPath("package-lock.json"),
      // X-Ray: the Lambda's segment here, the AWS SDK clients' subsegments from Powertools Tracer (functions/src/platform/tracer.ts).
      tracing: Tracing.ACTIVE,
      environment: {
        ...props.environment,
        NODE_OPTIONS: "--enable-source-maps",
        // Powertools (functions/src/platform/logger.ts, metrics.ts, tracer.ts)
        POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace(stage.name),
        POWERTOOLS_LOGGER_SAMPLE_RATE: "0.01",
        ATENDE_STAGE: stage.name,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: LAMBDA_BUNDLING.target,
        mainFields: [...LAMBDA_BUNDLING.mainFields],
        minify: LAMBDA_BUNDLING.minify,
        sourceMap: true,
        externalModules: [...LAMBDA_BUNDLING.external],
        banner: LAMBDA_BUNDLING.banner,
      },
    });
  }
}
