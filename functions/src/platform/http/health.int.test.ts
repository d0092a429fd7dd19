import { describe, expect, it } from "vitest";
import { createTestApp } from "../../testing/test-app";

describe("GET /api/health", () => {
  it("answers 200 ok when the table answers; queues that are not configured are named as such", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      version: expect.any(String),
      checks: { table: "ok", "queue:inbound": "not-configured", "queue:outbound": "not-configured", "queue:jobs": "not-configured" },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 503 degraded naming the table when it does not answer", async () => {
    const t = await createTestApp({ TABLE_NAME: "no_such_table" });
    const res = await t.call("GET", "/health");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "degraded", checks: { table: "error" } });
  });

  it("answers 503 degraded naming the queue that does not answer, the others ok", async () => {
    const t = await createTestApp({ SQS_ENDPOINT: "http://127.0.0.1:9", QUEUE_URL_INBOUND: "http://127.0.0.1:9/000000000000/inbound.fifo" });
    const res = await t.call("GET", "/health");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "degraded", checks: { table: "ok", "queue:inbound": "error", "queue:outbound": "not-configured" } });
  });

  it("needs no login and shows no tenant data (the same answer with any company's token or none)", async () => {
    const t = await createTestApp();
    const res = await t.call("GET", "/health", { token: "not-a-token" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(["checks", "status", "version"]);
  });
});
