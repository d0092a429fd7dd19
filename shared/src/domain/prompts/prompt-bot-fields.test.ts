import { describe, expect, it } from "vitest";
import { promptSchema, promptUpdateSchema } from "./prompt";

const base = { name: "Bot", prompt: "Você é um atendente.", apiKey: "sk-1", queueId: 1 };

describe("prompt: model, endpoint, handover words and monthly cap (issue 11)", () => {
  it("defaults to OpenAI's endpoint and default model, the default words and no cap", () => {
    expect(promptSchema.parse(base)).toMatchObject({ model: "", baseUrl: "", handoverKeywords: ["atendente", "humano"], monthlyTokenCap: 0 });
  });

  it("takes an OpenAI-compatible endpoint, words as text or list, a cap as digits", () => {
    const p = promptSchema.parse({ ...base, model: "llama-3.1-70b", baseUrl: "https://api.groq.com/openai/v1", handoverKeywords: "gerente, humano\nsupervisor", monthlyTokenCap: "50000" });
    expect(p).toMatchObject({ model: "llama-3.1-70b", baseUrl: "https://api.groq.com/openai/v1", handoverKeywords: ["gerente", "humano", "supervisor"], monthlyTokenCap: 50000 });
    expect(promptSchema.parse({ ...base, handoverKeywords: [] }).handoverKeywords).toEqual([]);
    expect(promptUpdateSchema.parse({ baseUrl: "", handoverKeywords: ["a"] })).toEqual({ baseUrl: "", handoverKeywords: ["a"] });
    expect(promptUpdateSchema.parse({})).toEqual({});
  });

  it("refuses a bad endpoint, a negative cap, too many or too long words", () => {
    for (const bad of [{ baseUrl: "ftp://x" }, { baseUrl: "not a url" }, { monthlyTokenCap: -1 }, { monthlyTokenCap: 1.5 }, { handoverKeywords: Array(21).fill(0).map((_, i) => `w${i}`) }, { handoverKeywords: ["x".repeat(61)] }])
      expect(promptSchema.safeParse({ ...base, ...bad }).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
  });
});
