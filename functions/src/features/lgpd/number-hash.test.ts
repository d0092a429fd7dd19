import { describe, expect, it } from "vitest";
import { createNumberHasher, erasureHashKey } from "./number-hash";

describe("erased number hash", () => {
  const hash = createNumberHasher("a-server-secret-of-enough-length-0000");
  it("is the same for every spelling of one number (digits, ninth digit)", () => {
    expect(hash("+55 (11) 99999-8888")).toBe(hash("5511999998888"));
    expect(hash("551199998888")).toBe(hash("5511999998888"));
  });
  it("differs between numbers and between secrets, and never contains the number", () => {
    expect(hash("5511999998888")).not.toBe(hash("5511999998887"));
    expect(createNumberHasher("another-secret-of-enough-length-00000")("5511999998888")).not.toBe(hash("5511999998888"));
    expect(hash("5511999998888")).not.toContain("999998888");
  });
  it("derives its key from the JWT secret under its own label when no secret is configured", () => {
    const derived = erasureHashKey({ JWT_SECRET: "j".repeat(40) });
    expect(Buffer.from(derived).toString("utf8")).not.toContain("jjjj");
    expect(Buffer.from(erasureHashKey({ JWT_SECRET: "j".repeat(40), ERASURE_HASH_SECRET: "s".repeat(32) })).toString()).toBe("s".repeat(32));
  });
});
