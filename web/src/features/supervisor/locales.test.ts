import { describe, expect, it } from "vitest";

/** Every supervisor string (cockpit, whispers; issue 34) exists in pt, en and es (same keys in the three files). */
const files = import.meta.glob<Record<string, unknown>>("../../locales/*/supervisor.json", { eager: true, import: "default" });
const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();

describe("supervisor translations", () => {
  it("has the same keys in pt, en and es, none empty", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((lng) => files[`../../locales/${lng}/supervisor.json`]);
    expect(pt).toBeDefined();
    expect(keys(en ?? {})).toEqual(keys(pt ?? {}));
    expect(keys(es ?? {})).toEqual(keys(pt ?? {}));
    expect(JSON.stringify([pt, en, es])).not.toMatch(/:""/);
  });
});
