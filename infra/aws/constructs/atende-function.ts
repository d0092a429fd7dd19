import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Architecture, Runtime } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { repoPath } from "./repo-paths";

export interface AtendeFunctionProps {
  /** absolute path of the handler module (exports `handler`) */
  readonly entry: string;
  readonly description: string;
  readonly environment: Record<string, string>;
  readonly timeout?: Duration;
  readonly memorySize?: number;
}

/**
 * One Lambda of the functions deployable: Node 22 on arm64, bundled locally by esbuild into one ESM file.
 * The AWS SDK v3 stays external (the Node 22 runtime provides it), everything else is bundled.
 */
export class AtendeFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AtendeFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    super(scope, id, {
      entry: props.entry,
      handler: "handler",
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(30),
      logGroup,
      projectRoot: repoPath(),
      depsLockFilePath: repoPath("package-lock.json"),
      environment: { ...props.environment, NODE_OPTIONS: "--enable-source-maps" },
      bundling: {
        format: OutputFormat.ESM,
        target: "node22",
        mainFields: ["module", "main"],
        minify: true,
        sourceMap: true,
        // Bundled CommonJS dependencies may call require() for Node built-ins; ESM has no require of its own.
        banner: "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);",
      },
    });
  }
}
