import { describe, expect, it } from "vitest";
import { createLogger } from "../../../platform/logger";
import { createMemoryMetrics } from "../../../platform/metrics";
import { envelope, INBOUND, PHONE_NUMBER_ID, STATUSES } from "../../../platform/channels/cloud-api/meta-webhook.fixtures";
import { signatureFor } from "../../../platform/channels/meta-webhook/webhook-signature";
import type { CloudApiRepository } from "./cloud-api.repository";
import { createCloudApiWebhookService } from "./cloud-api-webhook.service";

/** The webhook Lambda's counters (issue 16 items 1-2): customers' messages in, and the signature failures the alarm watches. */
const setup = () => {
  const recorded = createMemoryMetrics();
  const put: unknown[] = [];
  const repo = {
    byHook: async (hookId: string) => (hookId === "hook-1" ? { companyId: 3, whatsappId: 7 } : null),
    get: async () => ({ phoneNumberId: PHONE_NUMBER_ID, appSecret: "sealed", verifyToken: "v" }),
  } as unknown as CloudApiRepository;
  const service = createCloudApiWebhookService({
    repo,
    secrets: { seal: async (v: string) => v, open: async () => "app-secret" } as never,
    inbound: { put: async (event) => void put.push(event) },
    logger: createLogger("silent"),
    metrics: recorded.metrics,
  });
  return { service, recorded, put };
};

describe("Cloud API webhook metrics", () => {
  it("counts each customer's message as in by provider cloud-api; statuses are not messages", async () => {
    const { service, recorded, put } = setup();
    const body = JSON.stringify(envelope({ messages: [INBOUND.text!, INBOUND.image!], statuses: [STATUSES.delivered ?? Object.values(STATUSES)[0]!] }));
    expect(await service.receive("hook-1", body, signatureFor(body, "app-secret"))).toMatchObject({ status: 200 });
    expect(put.length).toBe(3);
    expect(recorded.points).toEqual([
      { name: "MessagesIn", value: 1, unit: "count", dimensions: { provider: "cloud-api" } },
      { name: "MessagesIn", value: 1, unit: "count", dimensions: { provider: "cloud-api" } },
    ]);
  });

  it("counts a call whose signature does not match as a signature failure, and enqueues nothing", async () => {
    const { service, recorded, put } = setup();
    const body = JSON.stringify(envelope({ messages: [INBOUND.text!] }));
    expect(await service.receive("hook-1", body, signatureFor(body, "another-secret"))).toEqual({ status: 403 });
    expect(await service.receive("hook-1", body, undefined)).toEqual({ status: 403 });
    expect(put).toEqual([]);
    expect(recorded.sum("CloudApiWebhookSignatureFailures")).toBe(2);
    expect(recorded.sum("MessagesIn")).toBe(0);
  });
});
