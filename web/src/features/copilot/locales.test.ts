import { describe, expect, it } from "vitest";

/** Every copilot string (issue 33) exists in pt, en and es (same keys in the three files), and its error texts too. */
const files = import.meta.glob<Record<string, unknown>>("../../locales/*/copilot.json", { eager: true, import: "default" });
const errors = import.meta.glob<Record<string, string>>("../../locales/*/errors.json", { eager: true, import: "default" });
const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();

describe("copilot translations", () => {
  it("has the same keys in pt, en and es, none empty, and the copilot's error texts", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((lng) => files[`../../locales/${lng}/copilot.json`]);
    expect(pt).toBeDefined();
    expect(keys(en ?? {})).toEqual(keys(pt ?? {}));
    expect(keys(es ?? {})).toEqual(keys(pt ?? {}));
    expect(JSON.stringify([pt, en, es])).not.toMatch(/:""/);
    for (const lng of ["pt", "en", "es"])
      for (const code of ["ERR_COPILOT_DISABLED", "ERR_COPILOT_PROVIDER", "ERR_AI_QUOTA"]) expect(errors[`../../locales/${lng}/errors.json`]?.[code], `${lng} ${code}`).toBeTruthy();
  });
});
