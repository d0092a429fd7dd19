import { describe, expect, it } from "vitest";
import { conversationMessages, DIGEST_CHARS, parseSuggestions, promptChars, RECENT_LINES, summaryMessages, type PromptLine } from "./copilot-prompts";

const line = (i: number, kind: PromptLine["kind"] = i % 2 ? "agent" : "customer", size = 120): PromptLine => ({
  kind,
  text: `linha ${i} `.padEnd(size, "x"),
  createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
});

describe("copilot prompts", () => {
  it("a short conversation goes whole, the customer as user, ours and notes as assistant", () => {
    const out = conversationMessages([line(0, "customer"), line(1, "agent"), line(2, "note")]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    expect(out[2]!.content.startsWith("[Nota interna] ")).toBe(true);
  });

  it("a long conversation stays bounded: the newest lines as they are, the older ones as a digest", () => {
    const lines = Array.from({ length: 200 }, (_, i) => line(i, undefined, 1000));
    const out = summaryMessages(lines, "pt");
    expect(out).toHaveLength(2 + RECENT_LINES); // the instruction, the digest, the recent lines
    expect(out[1]!.content).toContain("Histórico anterior resumido (170 mensagens");
    expect(out[1]!.content.length).toBeLessThanOrEqual(DIGEST_CHARS + 200);
    expect(out.at(-1)!.content).toContain("linha 199");
    expect(promptChars(out)).toBeLessThan(40_000);
    expect(promptChars(out)).toBeLessThan(200 * 1000 / 4);
  });

  it("answers in the attendant's language", () => {
    expect(summaryMessages([line(0)], "en-US")[0]!.content).toContain("inglês (English)");
    expect(summaryMessages([line(0)], undefined)[0]!.content).toContain("português");
  });

  it("reads up to 3 suggestions, numbering and quotes removed", () => {
    expect(parseSuggestions('1. "Olá!"\n2) Tudo bem?\n\n- Posso ajudar?\n4. Outra')).toEqual(["Olá!", "Tudo bem?", "Posso ajudar?"]);
  });
});
