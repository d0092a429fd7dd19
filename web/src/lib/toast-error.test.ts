import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "./api-client";
import i18n, { changeLanguage } from "./i18n";
import { errorMessage } from "./toast-error";

describe("error messages", () => {
  afterEach(async () => {
    await changeLanguage("pt");
  });

  it("translates a known code, shows an unknown one raw, and has a generic text for nothing", async () => {
    expect(errorMessage(new ApiError(401, "ERR_INVALID_CREDENTIALS", undefined))).toBe(i18n.t("errors:ERR_INVALID_CREDENTIALS"));
    expect(errorMessage(new ApiError(401, "ERR_INVALID_CREDENTIALS", undefined))).toMatch(/autenticação/);
    expect(errorMessage(new ApiError(400, "Something odd", undefined))).toBe("Something odd");
    expect(errorMessage(new ApiError(500, undefined, undefined))).toBe("Ocorreu um erro!");
    await changeLanguage("en");
    expect(errorMessage(undefined)).toBe("An error occurred!");
  });

  it("fills a text with the error's data: the server's limit, not a copy of it", () => {
    expect(errorMessage(new ApiError(400, "ERR_TOO_MANY_TAGS", { error: "ERR_TOO_MANY_TAGS", data: { max: 20 } }))).toBe("Um atendimento pode ter no máximo 20 tags.");
    expect(errorMessage(new ApiError(400, "ERR_TOO_MANY_TAGS", { error: "ERR_TOO_MANY_TAGS", data: { max: 12 } }))).toContain("no máximo 12 tags");
  });

  it("every catalogue code has a translation in pt, en and es", async () => {
    const { ERROR_STATUS } = await import("@atende/shared/errors/error-codes");
    for (const lng of ["pt", "en", "es"] as const) {
      await changeLanguage(lng); // each language's strings load on demand (one chunk per language)
      const missing = Object.keys(ERROR_STATUS).filter((code) => !i18n.exists(`errors:${code}`, { lng, fallbackLng: false }));
      expect(missing, lng).toEqual([]);
    }
  });
});
