import { App } from "aws-cdk-lib";
import { jobsHandlerEntryIfPresent, webDistIfBuilt } from "../constructs/repo-paths";
import { parseStage } from "../constructs/stage";
import { AtendeStack } from "../stacks/atende.stack";
import { applyNagChecks } from "../stacks/nag";

/**
 * `npx cdk synth|deploy` (cdk.json at the repository root). Context (`-c key=value`):
 * - mailFrom: MAIL_FROM of the Lambdas (an SES-verified identity), default no-reply@atende.local
 * - appVersion: APP_VERSION, default 0.1.0
 * - deployWeb=false: skip uploading web/dist even when it exists (only /config.json is deployed)
 * - stage: staging | prod (default prod); one stage per AWS account or region (queue names are fixed)
 * - alarmEmail: e-mail address subscribed to the alarm topic
 * - stackName: default Atende-<stage>
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined ? undefined : String(value);
};

const stage = parseStage(context("stage"));
const stack = new AtendeStack(app, context("stackName") ?? `Atende-${stage}`, {
  stage,
  alarmEmail: context("alarmEmail"),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: "Atende: multi-tenant WhatsApp contact centre",
  mailFrom: context("mailFrom") ?? "no-reply@atende.local",
  appVersion: context("appVersion") ?? "0.1.0",
  webDistDir: context("deployWeb") === "false" ? undefined : webDistIfBuilt(),
  jobsHandlerEntry: jobsHandlerEntryIfPresent(),
});
// AWS Solutions checks at synth: an unsuppressed finding fails `cdk synth` (suppressions and reasons: stacks/nag.ts).
applyNagChecks(stack);
