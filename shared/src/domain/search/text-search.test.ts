import { describe, expect, it } from "vitest";
import { corpus, MARKED } from "./pt-corpus.fixtures";
import { fold, highlightRanges, indexTerms, numberForms, parseQuery, prefixKeysOf, queryKeyOf, score, shardFor, shardsOf, shortForIndex, snippet, stem, textMatches, tokenize } from "./text-search";

describe("normalisation and tokens", () => {
  it("folds accents and case, keeps positions in the original text", () => {
    expect(fold("AÇÃO Não Vocês")).toBe("acao nao voces");
    const t = tokenize("Olá, INSTALAÇÃO!");
    expect(t.map((x) => x.word)).toEqual(["ola", "instalacao"]);
    expect("Olá, INSTALAÇÃO!".slice(t[1]!.start, t[1]!.end)).toBe("INSTALAÇÃO");
  });

  it("leaves out stop words and single letters from the index", () => {
    expect(indexTerms("Meu boleto está vencido, e a segunda via?")).toEqual(["bolet", "vencid", "segund", "via"]);
  });
});

describe("light Portuguese stemmer", () => {
  it.each([
    ["boleto", "boletos", "bolet"],
    ["vencido", "vencidos", "vencid"],
    ["vencida", "vencidas", "vencid"],
    ["cartão", "cartões", "carta"],
    ["notificação", "notificações", "notificaca"],
    ["papel", "papéis", "papel"],
    ["fatura", "faturas", "fatur"],
    ["mensalidade", "mensalidades", "mensalidad"],
    ["cobrança", "cobranças", "cobranc"],
  ])("%s and %s share the stem %s", (a, b, s) => {
    expect(stem(fold(a))).toBe(s);
    expect(stem(fold(b))).toBe(s);
  });

  it("leaves short words, numbers and -us/-is endings alone", () => {
    expect(stem("via")).toBe("via");
    expect(stem("12345")).toBe("12345");
    expect(stem(fold("ônibus"))).toBe("onibus");
    expect(stem(fold("lápis"))).toBe("lapis");
  });
});

describe("queries", () => {
  it("needs every word; the last word and short words are prefixes", () => {
    const q = parseQuery("Boleto VENC");
    expect(q).toEqual([
      { term: "bolet", word: "boleto", prefix: false },
      { term: "venc", word: "venc", prefix: true },
    ]);
    expect(textMatches(q, "meu boleto está vencido")).toBe(true);
    expect(textMatches(q, "meu boleto está pago")).toBe(false);
    expect(textMatches(parseQuery("boletos vencidos"), "O BOLETO VENCIDA")).toBe(true);
  });

  it("keeps stop words only when nothing else was typed", () => {
    expect(parseQuery("de a boleto").map((x) => x.term)).toEqual(["bolet"]);
    expect(parseQuery("de").map((x) => x.word)).toEqual(["de"]);
  });

  it("treats digits as prefixes (numbers and protocols) in their usual shorter forms", () => {
    expect(numberForms("+55 (11) 98765-4321")).toEqual(["5511987654321", "11987654321", "987654321", "87654321"]);
    const q = parseQuery("98765");
    expect(q[0]!.prefix).toBe(true);
    expect(textMatches(q, numberForms("5511987654321").join(" "))).toBe(true);
  });
});

describe("snippets and highlights", () => {
  it("marks the words that matched as ranges in the original text, never markup", () => {
    const text = "Olá, meu <b>boleto</b> está VENCIDO";
    const q = parseQuery("boleto vencido");
    expect(highlightRanges(q, text).map(([s, e]) => text.slice(s, e))).toEqual(["boleto", "VENCIDO"]);
    const segs = snippet(q, text);
    expect(segs.map((s) => s.text).join("")).toBe(text);
    expect(segs.filter((s) => s.match).map((s) => s.text)).toEqual(["boleto", "VENCIDO"]);
  });

  it("cuts long texts around the first match with ellipses", () => {
    const text = `${"palavra ".repeat(60)}o boleto venceu ${"depois ".repeat(60)}`;
    const segs = snippet(parseQuery("boleto"), text, 80);
    expect(segs[0]).toEqual({ text: "…", match: false });
    expect(segs.at(-1)).toEqual({ text: "…", match: false });
    expect(segs.filter((s) => s.match).map((s) => s.text)).toEqual(["boleto"]);
    expect(segs.map((s) => s.text).join("").length).toBeLessThanOrEqual(84);
  });
});

describe("ranking", () => {
  it("ranks a phrase above the words apart, whole words above prefixes", () => {
    const q = parseQuery("boleto vencido");
    expect(score(q, "boleto vencido ontem", "message")).toBeGreaterThan(score(q, "o boleto de ontem já está vencido", "message"));
    const p = parseQuery("bol");
    expect(score(parseQuery("boleto"), "boleto", "message")).toBeGreaterThanOrEqual(score(p, "boleto", "message"));
  });
});

describe("recall on a Portuguese corpus (text rules alone)", () => {
  const docs = corpus(600);
  const find = (q: string) => docs.filter((d) => textMatches(parseQuery(q), d.body)).map((d) => d.id);
  it("finds plurals, feminine forms, accents and prefixes", () => {
    expect(find("boleto vencido")).toEqual(expect.arrayContaining(["mk-boleto-vencido", "mk-boletos-vencidos"]));
    expect(find("segunda via")).toContain("mk-segunda-via");
    expect(find("notificacao")).toContain("mk-notificacao");
    expect(find("instalação março")).toContain("mk-acentos");
    expect(find("cartao recusado")).toContain("mk-cartoes");
    expect(find("bolet")).toEqual(expect.arrayContaining(["mk-boleto-vencido", "mk-boletos-vencidos"]));
    // and nothing that lacks a word
    expect(find("boleto vencido").every((id) => /bolet/i.test(fold(docs.find((d) => d.id === id)!.body)))).toBe(true);
    expect(MARKED.length).toBe(6);
  });
});

describe("index keys (one partition per whole word or prefix, ADR 0041)", () => {
  it("writes a word under its first 3 and 5 letters, a number under 4, 6, 8 digits, a short term under itself", () => {
    expect(prefixKeysOf("mensalidad")).toEqual(["men", "mensa"]);
    expect(prefixKeysOf("bolet")).toEqual(["bol", "bolet"]);
    expect(prefixKeysOf("cont")).toEqual(["con"]);
    expect(prefixKeysOf("via")).toEqual(["via"]);
    expect(prefixKeysOf("ok")).toEqual(["ok"]);
    expect(prefixKeysOf("987654321")).toEqual(["9876", "987654", "98765432"]);
    expect(prefixKeysOf("123")).toEqual(["123"]);
  });
  it("reads the longest key that fits what was typed, filtered for the whole word or the prefix", () => {
    const [boleto, venc] = parseQuery("boleto venc");
    expect(queryKeyOf(boleto!)).toEqual({ key: "bolet", own: "bolet", exact: true });
    expect(queryKeyOf(venc!)).toEqual({ key: "ven", own: "venc", exact: false });
    const [vencido] = parseQuery("vencido boleto");
    expect(queryKeyOf(vencido!)).toEqual({ key: "venci", own: "vencid", exact: true });
    expect(queryKeyOf(parseQuery("conta pix")[0]!)).toEqual({ key: "con", own: "cont", exact: true });
    expect(queryKeyOf(parseQuery("mensalid")[0]!)).toEqual({ key: "mensa", own: "mensalid", exact: false });
    expect(queryKeyOf(parseQuery("98765")[0]!)).toEqual({ key: "9876", own: "98765", exact: false });
    expect(queryKeyOf(parseQuery("bol")[0]!)).toEqual({ key: "bol", own: "bol", exact: false });
    // too short to have a key of its own length: the word itself
    expect(queryKeyOf(parseQuery("ok")[0]!)).toEqual({ key: "ok", own: "ok", exact: true });
  });
  it("every key a query reads is one its matching terms were written under", () => {
    const terms = ["bolet", "vencid", "cont", "via", "ok", "mensalidad", "987654321", "12345", "carta", "notificaca"];
    const written = new Map(terms.map((t) => [t, new Set(prefixKeysOf(t))]));
    for (const q of ["boleto", "bol", "bole", "vencido x", "venc", "conta x", "via", "ok", "mensalidades x", "mensal", "9876", "98765432", "12345 x", "1234", "cartões", "notific"]) {
      const [first] = parseQuery(q);
      const { key, own, exact } = queryKeyOf(first!);
      for (const t of terms) {
        const answers = exact ? t === own : t.startsWith(own);
        if (answers) expect(written.get(t)!.has(key), `${q} → ${key} for ${t}`).toBe(true);
      }
    }
  });
});

describe("what the index cannot answer as a prefix (ADR 0055)", () => {
  it("a word of one or two letters (the index finds only that word); not numbers, not stop words dropped, not three letters", () => {
    for (const q of ["jo", "maria d", "d'ávila", "zé carlos", "a"]) expect(shortForIndex(q), q).toBe(true);
    for (const q of ["joa", "maria da", "zuleica", "551", "(11) 98765", "boleto vencido", ""]) expect(shortForIndex(q), q).toBe(false);
  });
});

describe("shards", () => {
  it("spreads frequent words over shards, stable per document", () => {
    expect(shardsOf("bolet")).toBe(1);
    expect(shardsOf("oi")).toBeGreaterThan(1);
    expect(shardFor("oi", "m:abc")).toBe(shardFor("oi", "m:abc"));
    const seen = new Set(Array.from({ length: 50 }, (_, i) => shardFor("oi", `m:${i}`)));
    expect(seen.size).toBe(shardsOf("oi"));
  });
});
