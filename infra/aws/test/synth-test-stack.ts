import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AtendeStack, type AtendeStackProps } from "../stacks/atende.stack";

/** Synthesizes the stack without bundling the Lambdas (no esbuild, no Docker, no network). */
export const synthTestStack = (props: Partial<AtendeStackProps> = {}): { template: Template; outdir: string } => {
  const outdir = mkdtempSync(join(tmpdir(), "atende-cdk-test-"));
  const app = new App({ outdir, context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new AtendeStack(app, "AtendeTest", { mailFrom: "no-reply@example.com", appVersion: "9.9.9", ...props });
  return { template: Template.fromStack(stack), outdir };
};

/** Contents of the staged asset files with this name (e.g. the generated config.json), from the cloud assembly. */
export const stagedAssetFiles = (outdir: string, fileName: string): string[] =>
  readdirSync(outdir)
    .filter((entry) => entry.startsWith("asset.") && existsSync(join(outdir, entry, fileName)))
    .map((entry) => readFileSync(join(outdir, entry, fileName), "utf8"));

type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: string[]; DeletionPolicy?: string };

/** The template's resources of one type, by logical id. */
export const resourcesOfType = (template: Template, type: string): [string, Resource][] =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

/** Logical id of the Lambda whose description starts with the given text. */
export const functionId = (template: Template, descriptionStart: string): string => {
  const found = resourcesOfType(template, "AWS::Lambda::Function").find(([, r]) => String(r.Properties.Description ?? "").startsWith(descriptionStart));
  if (!found) throw new Error(`no function described "${descriptionStart}..."`);
  return found[0];
};

/** Logical id of the SQS queue with this physical name. */
export const queueId = (template: Template, queueName: string): string => {
  const found = resourcesOfType(template, "AWS::SQS::Queue").find(([, r]) => r.Properties.QueueName === queueName);
  if (!found) throw new Error(`no queue named ${queueName}`);
  return found[0];
};
