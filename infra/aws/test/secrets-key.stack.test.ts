import { describe, expect, it } from "vitest";
import { functionId, resourcesOfType, synthTestStack } from "./synth-test-stack";

describe("company secrets key (KMS)", () => {
  const { template } = synthTestStack({ jobsHandlerEntry: "functions/src/handlers/jobs.ts" });
  const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, any> }> };

  it("is a customer managed key with rotation on, kept when the stack goes", () => {
    const keys = resourcesOfType(template, "AWS::KMS::Key");
    expect(keys).toHaveLength(1);
    expect(keys[0]![1].Properties.EnableKeyRotation).toBe(true);
    expect(keys[0]![1].DeletionPolicy).toBe("Retain");
  });

  it("reaches every worker Lambda as SECRETS_KMS_KEY_ID, with encrypt and decrypt granted", () => {
    const keyId = resourcesOfType(template, "AWS::KMS::Key")[0]![0];
    for (const description of ["Atende jobs queue consumer", "Atende inbound.fifo consumer"]) {
      const fn = json.Resources[functionId(template, description)]!;
      expect(fn.Properties.Environment.Variables.SECRETS_KMS_KEY_ID).toEqual({ "Fn::GetAtt": [keyId, "Arn"] });
    }
    const policies = resourcesOfType(template, "AWS::IAM::Policy").map(([, p]) => JSON.stringify(p.Properties.PolicyDocument));
    const withKey = policies.filter((p) => p.includes("kms:Decrypt") && p.includes("kms:Encrypt") && p.includes(keyId));
    expect(withKey.length).toBeGreaterThanOrEqual(3); // api, inbound, tick, jobs
  });

  it("gives the jobs consumer (bot turns) a minute", () => {
    expect(json.Resources[functionId(template, "Atende jobs queue consumer")]!.Properties.Timeout).toBe(60);
  });
});
