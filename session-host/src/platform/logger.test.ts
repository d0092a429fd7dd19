import { afterEach, expect, it, vi } from "vitest";
import { createLogger } from "./logger";

afterEach(() => vi.restoreAllMocks());

it("writes Powertools JSON lines with the host's fields and no secret", () => {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), true));
  createLogger("info", { service: "session-host" }).child({ companyId: "c1" }).info("session open", { whatsappId: "w1", creds: { noiseKey: { private: "x" } }, authToken: "t-1" });
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: "INFO", message: "session open", service: "session-host", companyId: "c1", whatsappId: "w1", authToken: "[redacted]" });
  expect(JSON.stringify(lines[0])).not.toContain("t-1");
});
