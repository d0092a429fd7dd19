import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalSecretBox } from "./local-secret-box.adapter";
import { isSealed } from "./secret-box.port";

describe("local secret box", () => {
  const keyFile = join(mkdtempSync(join(tmpdir(), "box-")), "keys", "secret.key");

  it("seals to an opaque value that opens to the same text, with a fresh IV each time", async () => {
    const box = createLocalSecretBox(keyFile);
    const a = await box.seal("sk-live-123");
    const b = await box.seal("sk-live-123");
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain("sk-live-123");
    expect(a).not.toBe(b);
    expect(await box.open(a)).toBe("sk-live-123");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it("reuses the key file, so a restart opens what was sealed before", async () => {
    const sealed = await createLocalSecretBox(keyFile).seal("token");
    expect(await createLocalSecretBox(keyFile).open(sealed)).toBe("token");
    expect(readFileSync(keyFile, "utf8").length).toBeGreaterThan(40);
  });

  it("refuses a tampered value", async () => {
    const box = createLocalSecretBox(keyFile);
    const sealed = await box.seal("token");
    const parts = sealed.split(":");
    parts[4] = Buffer.from("other").toString("base64");
    await expect(box.open(parts.join(":"))).rejects.toThrow();
  });
});
