import { describe, expect, it } from "vitest";
import { DEFAULT_OPT_OUT_KEYWORDS, isOptOutReply, normalizeOptOutText, optOutApplies } from "./opt-out-rules";
import { lgpdSettingsUpdateSchema } from "./lgpd-settings";

const words = [...DEFAULT_OPT_OUT_KEYWORDS];

describe("opt-out replies", () => {
  it("counts the words alone, whatever the case, accents and punctuation", () => {
    for (const body of ["SAIR", "sair", " Sair! ", "parar.", "Stop", "CANCELAR 🙏", "cancelár"]) expect(isOptOutReply(body, words), body).toBe(true);
  });
  it("does not count a word inside a sentence, other words or empty text", () => {
    for (const body of ["não quero sair agora", "sairei", "", "   ", "1", "pare"]) expect(isOptOutReply(body, words), body).toBe(false);
  });
  it("uses the company's own list", () => {
    expect(isOptOutReply("descadastrar", ["Descadastrar"])).toBe(true);
    expect(isOptOutReply("sair", ["Descadastrar"])).toBe(false);
  });
  it("normalises text the same way for keywords and replies", () => {
    expect(normalizeOptOutText("  Não, obrigado!! ")).toBe("NAO OBRIGADO");
  });
  it("applies after a campaign always, elsewhere only with the company's setting", () => {
    expect(optOutApplies({ afterCampaign: true, anyTicket: false })).toBe(true);
    expect(optOutApplies({ afterCampaign: false, anyTicket: false })).toBe(false);
    expect(optOutApplies({ afterCampaign: false, anyTicket: true })).toBe(true);
  });
});

describe("LGPD settings update", () => {
  it("accepts a partial update and de-duplicates keywords by their normal form", () => {
    expect(lgpdSettingsUpdateSchema.parse({ optOutKeywords: ["Sair", "SAIR!", "parar"] })).toEqual({ optOutKeywords: ["SAIR!", "parar"] });
  });
  it("refuses an empty list, unknown fields and out-of-range retention", () => {
    expect(lgpdSettingsUpdateSchema.safeParse({ optOutKeywords: [] }).success).toBe(false);
    expect(lgpdSettingsUpdateSchema.safeParse({ other: 1 }).success).toBe(false);
    expect(lgpdSettingsUpdateSchema.safeParse({ mediaRetentionDays: 0 }).success).toBe(false);
    expect(lgpdSettingsUpdateSchema.safeParse({ mediaRetentionDays: null }).success).toBe(true);
    expect(lgpdSettingsUpdateSchema.safeParse({ optOutKeywords: ["!!!"] }).success).toBe(false);
  });
});
