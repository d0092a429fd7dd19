import { describe, expect, it } from "vitest";

/** Every inbox string exists in pt, en and es (same keys in the three files). */
const files = import.meta.glob<Record<string, unknown>>("../../../locales/*/{tickets,messages,contacts}.json", { eager: true, import: "default" });

const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();

describe("inbox translations", () => {
  for (const ns of ["tickets", "messages", "contacts"]) {
    it(`${ns} has the same keys in pt, en and es, none empty`, () => {
      const [pt, en, es] = ["pt", "en", "es"].map((lng) => files[`../../../locales/${lng}/${ns}.json`]);
      expect(pt, `${ns} pt`).toBeDefined();
      expect(keys(en ?? {})).toEqual(keys(pt ?? {}));
      expect(keys(es ?? {})).toEqual(keys(pt ?? {}));
      const values = JSON.stringify([pt, en, es]);
      expect(values).not.toMatch(/:""/);
    });
  }
});
