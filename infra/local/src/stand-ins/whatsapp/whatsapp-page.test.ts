import { describe, expect, it } from "vitest";
import { SIMULATOR_PAGE } from "./whatsapp-page";

/** The page's dictionary, read from its script as the browser would. */
const texts = (): Record<string, Record<string, string>> => {
  const match = /const TEXTS = (\{[\s\S]*?\n\});/.exec(SIMULATOR_PAGE);
  if (!match?.[1]) throw new Error("no TEXTS in the simulator page");
  return new Function(`return ${match[1]}`)() as Record<string, Record<string, string>>;
};

describe("simulator page languages", () => {
  it("has every text it uses in pt, en and es, and the same keys in each", () => {
    const dict = texts();
    expect(Object.keys(dict).sort()).toEqual(["en", "es", "pt"]);
    const used = new Set([
      ...[...SIMULATOR_PAGE.matchAll(/data-i18n(?:-placeholder)?="([^"]+)"/g)].map((m) => m[1]!),
      ...[...SIMULATOR_PAGE.matchAll(/tr\('([^']+)'\)/g)].map((m) => m[1]!),
      ...[...SIMULATOR_PAGE.matchAll(/tr\(chat\.presence === 'composing' \? '([^']+)' : '([^']+)'\)/g)].flatMap((m) => [m[1]!, m[2]!]),
    ]);
    expect(used.size).toBeGreaterThan(30);
    for (const lang of ["pt", "en", "es"]) {
      for (const key of used) expect(dict[lang]?.[key], `${lang}.${key}`).toBeTruthy();
      expect(Object.keys(dict[lang]!).sort()).toEqual(Object.keys(dict.pt!).sort());
    }
    expect(dict.en!.scan).toBe("Scan QR");
    expect(dict.es!.customers).toBe("Clientes");
  });

  it("follows the app's language choice (localStorage `language`), Portuguese by default", () => {
    expect(SIMULATOR_PAGE).toContain("const LANGUAGE_KEY = 'language';");
    expect(SIMULATOR_PAGE).toContain("let lang = TEXTS[storedLang] ? storedLang : 'pt';");
  });
});
