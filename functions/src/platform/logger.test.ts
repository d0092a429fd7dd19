import { afterEach, describe, expect, it, vi } from "vitest";
import { addCorrelation, createLogger, runWithCorrelation, withCorrelation } from "./logger";

/** Lines the logger wrote (Powertools writes to process.stdout/stderr through its own Console). */
const capture = () => {
  const lines: Record<string, unknown>[] = [];
  const grab = (chunk: unknown) => {
    for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(grab);
  vi.spyOn(process.stderr, "write").mockImplementation(grab);
  return lines;
};
afterEach(() => vi.restoreAllMocks());

describe("logger (Powertools adapter)", () => {
  it("writes one JSON line with level, message, timestamp, service and the fields", () => {
    const lines = capture();
    createLogger("info").info("ticket opened", { ticketId: 7 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "INFO", message: "ticket opened", service: "atende", ticketId: 7 });
    expect(typeof lines[0]?.timestamp).toBe("string");
  });

  it("carries the correlation fields that are known on every line of a child, and drops unknown ones", () => {
    const lines = capture();
    const log = withCorrelation(createLogger("info"), { requestId: "req-1", companyId: "c1", ticketId: 42, connectionId: undefined });
    log.info("a");
    log.child({ step: "b" }).warn("b");
    expect(lines[0]).toMatchObject({ requestId: "req-1", companyId: "c1", ticketId: "42" });
    expect(lines[0]).not.toHaveProperty("connectionId");
    expect(lines[1]).toMatchObject({ level: "WARN", requestId: "req-1", companyId: "c1", ticketId: "42", step: "b" });
  });

  it("adds the running unit of work's correlation to every line, learned as it goes, never mixing concurrent ones", async () => {
    const lines = capture();
    const log = createLogger("info");
    const request = (id: string, companyId: number, pause: number) =>
      runWithCorrelation({ requestId: id }, async () => {
        log.info("start");
        await new Promise((r) => setTimeout(r, pause));
        addCorrelation({ companyId }); // the caller became known
        log.info("done", { step: 2 });
      });
    await Promise.all([request("r-1", 1, 20), request("r-2", 2, 5)]);
    log.info("outside");
    const of = (id: string) => lines.filter((l) => l.requestId === id);
    expect(of("r-1").map((l) => [l.message, l.companyId])).toEqual([["start", undefined], ["done", "1"]]);
    expect(of("r-2").map((l) => [l.message, l.companyId])).toEqual([["start", undefined], ["done", "2"]]);
    expect(lines.find((l) => l.message === "outside")).not.toHaveProperty("requestId");
    // a field given on the line wins over the context's
    runWithCorrelation({ ticketId: 5 }, () => log.info("explicit", { ticketId: 6 }));
    expect(lines.at(-1)).toMatchObject({ message: "explicit", ticketId: 6 });
  });

  it("never writes secrets: redacted by key at any depth, in fields and in a child's keys", () => {
    const lines = capture();
    const log = createLogger("debug", { jwtSecret: "s3cr3t-base" }).child({ Authorization: "Bearer abc.def" });
    log.error("login failed", {
      password: "hunter2",
      user: { email: "a@b.c", refreshToken: "tok-1", nested: { apiKey: "k-1", cookie: "sid=1" } },
      headers: [{ "x-hub-signature-256": "sha256=ff" }],
    });
    const text = JSON.stringify(lines);
    for (const secret of ["s3cr3t-base", "abc.def", "hunter2", "tok-1", "k-1", "sid=1", "sha256=ff"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ password: "[redacted]", user: { email: "a@b.c", refreshToken: "[redacted]", nested: { apiKey: "[redacted]" } } });
  });

  it("honours the level: below it nothing is written; silent writes nothing", () => {
    const lines = capture();
    createLogger("warn").info("hidden");
    createLogger("silent").error("hidden too");
    createLogger("warn").error("shown", { err: new Error("boom") });
    expect(lines.map((l) => l.message)).toEqual(["shown"]);
    expect(lines[0]?.err).toMatchObject({ name: "Error", message: "boom" });
  });
});
