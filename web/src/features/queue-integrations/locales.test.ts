import { describe, expect, it } from "vitest";

/** Every prompts and integrations string exists in pt, en and es (same keys in the three files), and the new error codes too. */
const files = import.meta.glob<Record<string, unknown>>("../../locales/*/{prompts,queueIntegrations,errors}.json", { eager: true, import: "default" });

const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();

describe("prompts and integrations translations", () => {
  for (const ns of ["prompts", "queueIntegrations"]) {
    it(`${ns} has the same keys in pt, en and es, none empty`, () => {
      const [pt, en, es] = ["pt", "en", "es"].map((lng) => files[`../../locales/${lng}/${ns}.json`]);
      expect(pt, `${ns} pt`).toBeDefined();
      expect(keys(en ?? {})).toEqual(keys(pt ?? {}));
      expect(keys(es ?? {})).toEqual(keys(pt ?? {}));
      expect(JSON.stringify([pt, en, es])).not.toMatch(/:""/);
    });
  }
  it("translates the error codes of prompts and integrations in the three languages", () => {
    const codes = ["ERR_NO_QUEUE_FOUND", "ERR_NO_PROMPT_FOUND", "ERR_NO_INTEGRATION_FOUND", "ERR_PROMPT_IN_USE", "ERR_INTEGRATION_IN_USE", "ERR_DIALOGFLOW_INVALID_CREDENTIALS", "ERR_DIALOGFLOW_REJECTED", "ERR_DIALOGFLOW_UNREACHABLE", "ERR_INTEGRATION_NO_SECRET"];
    for (const lng of ["pt", "en", "es"]) {
      const errors = files[`../../locales/${lng}/errors.json`] as Record<string, string>;
      for (const code of codes) expect(errors[code], `${lng} ${code}`).toBeTruthy();
    }
  });
});
