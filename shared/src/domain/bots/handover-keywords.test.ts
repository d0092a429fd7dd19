import { describe, expect, it } from "vitest";
import { DEFAULT_HANDOVER_KEYWORDS, matchHandoverKeyword, parseKeywordList } from "./handover-keywords";

describe("handover keywords", () => {
  it("match whole words, whatever the case, accents and punctuation", () => {
    expect(matchHandoverKeyword("Quero falar com um ATENDENTE!", DEFAULT_HANDOVER_KEYWORDS)).toBe("atendente");
    expect(matchHandoverKeyword("um humano, por favor", DEFAULT_HANDOVER_KEYWORDS)).toBe("humano");
    expect(matchHandoverKeyword("Falar com o responsável", ["responsavel"])).toBe("responsavel");
    expect(matchHandoverKeyword("os atendentes são ótimos", DEFAULT_HANDOVER_KEYWORDS)).toBeNull();
    expect(matchHandoverKeyword("desumano", DEFAULT_HANDOVER_KEYWORDS)).toBeNull();
    expect(matchHandoverKeyword("quero falar com uma pessoa de verdade", ["pessoa de verdade"])).toBe("pessoa de verdade");
    expect(matchHandoverKeyword("", DEFAULT_HANDOVER_KEYWORDS)).toBeNull();
    expect(matchHandoverKeyword("atendente", [])).toBeNull();
  });

  it("read a list typed with commas or lines, without blanks or repeats", () => {
    expect(parseKeywordList("atendente, Humano,\n gerente ,, HUMANO")).toEqual(["atendente", "Humano", "gerente"]);
    expect(parseKeywordList(["a", " ", "á"])).toEqual(["a"]);
    expect(parseKeywordList(undefined)).toEqual([]);
  });
});
