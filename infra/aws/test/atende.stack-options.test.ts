import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Match } from "aws-cdk-lib/assertions";
import { afterEach, describe, expect, it } from "vitest";
import { QUEUES } from "@atende/shared/contracts/queue-names";
import { handlerEntry } from "../constructs/repo-paths";
import { bareAddress } from "../stacks/atende.stack";
import { functionId, queueId, resourcesOfType, stagedAssetFiles, synthTestStack } from "./synth-test-stack";

const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const synth = (...args: Parameters<typeof synthTestStack>) => {
  const result = synthTestStack(...args);
  cleanup.push(result.outdir);
  return result;
};

describe("web build deployment", () => {
  it("uploads a built web/dist: hashed files cached for good first, then index.html, session-boot.js and config.json revalidated", () => {
    const dist = mkdtempSync(join(tmpdir(), "atende-web-dist-"));
    cleanup.push(dist);
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><script src=/assets/app-1a2b.js></script>");
    writeFileSync(join(dist, "assets", "app-1a2b.js"), "console.log(1)");
    writeFileSync(join(dist, "session-boot.js"), "void 0");
    // the website chat: the loader companies paste (revalidated) and the versioned widget (cached for good)
    writeFileSync(join(dist, "webchat.js"), "void 1");
    writeFileSync(join(dist, "webchat.0123456789.js"), "void 2");

    const { template, outdir } = synth({ webDistDir: dist });
    const deployments = resourcesOfType(template, "Custom::CDKBucketDeployment");
    expect(deployments).toHaveLength(2);
    const [assetsId, assets] = deployments.find(([, d]) => !d.Properties.DistributionPaths)!;
    const [, entry] = deployments.find(([, d]) => d.Properties.DistributionPaths)!;
    expect(assets.Properties.UserMetadata ?? {}).toEqual({});
    expect(assets.Properties.SystemMetadata).toEqual({ "cache-control": "public, max-age=31536000, immutable" });
    expect(entry.Properties.SystemMetadata).toEqual({ "cache-control": "no-cache" });
    expect(entry.DependsOn).toContain(assetsId);
    // The entry deployment carries the web build's index.html with the unhashed script it loads first and the
    // generated config.json; the hashed deployment carries neither.
    expect(entry.Properties.SourceObjectKeys).toHaveLength(2);
    expect(stagedAssetFiles(outdir, "index.html")).toHaveLength(1);
    expect(stagedAssetFiles(outdir, "session-boot.js")).toHaveLength(1);
    expect(stagedAssetFiles(outdir, "assets/app-1a2b.js")).toHaveLength(1);
    expect(stagedAssetFiles(outdir, "config.json")).toHaveLength(1);
    expect(entry.Properties.DistributionPaths).toContain("/webchat.js");
    expect(stagedAssetFiles(outdir, "webchat.js")).toHaveLength(1);
    expect(stagedAssetFiles(outdir, "webchat.0123456789.js")).toHaveLength(1);
  });
});

describe("jobs queue consumer", () => {
  it("is absent until its handler exists: the jobs queue then has no consumer", () => {
    const { template } = synth();
    const jobsQueue = queueId(template, QUEUES.jobs);
    const mappings = resourcesOfType(template, "AWS::Lambda::EventSourceMapping");
    expect(mappings.some(([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes(`"${jobsQueue}"`))).toBe(false);
  });

  it("consumes the jobs queue with partial batch failures once an entry is given", () => {
    // Any existing handler file stands in for functions/src/handlers/jobs.ts: bundling is skipped here.
    const { template } = synth({ jobsHandlerEntry: handlerEntry("tick") });
    const jobsFn = functionId(template, "Atende jobs queue consumer");
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: jobsFn },
      EventSourceArn: { "Fn::GetAtt": [queueId(template, QUEUES.jobs), "Arn"] },
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    const fn = template.toJSON().Resources[jobsFn].Properties;
    expect(fn.Runtime).toBe("nodejs22.x");
    expect(template.toJSON().Resources[queueId(template, QUEUES.jobs)].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(fn.Timeout);
  });
});

describe("mail sender", () => {
  it("limits SES to the address inside MAIL_FROM", () => {
    expect(bareAddress("Atende <no-reply@atende.com.br>")).toBe("no-reply@atende.com.br");
    expect(bareAddress("no-reply@atende.com.br")).toBe("no-reply@atende.com.br");
    const { template } = synth({ mailFrom: "Atende <no-reply@atende.com.br>" });
    const env = template.toJSON().Resources[functionId(template, "Atende HTTP API")].Properties.Environment.Variables;
    expect(env.MAIL_FROM).toBe("Atende <no-reply@atende.com.br>");
    template.hasResourceProperties("AWS::IAM::Policy", {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: ["ses:SendEmail", "ses:SendRawEmail"], Condition: { StringEquals: { "ses:FromAddress": "no-reply@atende.com.br" } } })]),
      },
    });
  });
});
