import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { buildContactExport } from "./contact-export.builder";
import { personFixture } from "./person-data.fixtures";

describe("contact export ZIP", () => {
  const photo = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const build = (readMedia = async (key: string) => (key === "7/B2/foto.jpg" ? { body: photo, mimetype: "image/jpeg" } : null)) =>
    buildContactExport(personFixture(), { exportedAt: "2026-02-01T00:00:00.000Z", readMedia });

  it("holds the contact, tickets, ratings, messages with their media, notes, list items, shippings and the opt-out", async () => {
    const files = unzipSync(await build());
    const json = (p: string) => JSON.parse(strFromU8(files[p]!));
    expect(json("contato.json").contact).toEqual({ id: 3, name: "Joana Prado", number: "5511988887777", email: "joana@x.br", isGroup: false, lid: "L123" });
    expect(json("contato.json").optOut).toMatchObject({ message: "SAIR", source: "campaign" });
    expect(json("atendimentos.json")).toEqual([expect.objectContaining({ id: 10, status: "closed", lastMessage: "obrigada Joana" })]);
    expect(json("avaliacoes.json")).toEqual([expect.objectContaining({ ticketId: 10, rating: 3 })]);
    expect(json("mensagens.json").map((m: { id: string; file: string | null }) => [m.id, m.file])).toEqual([["A1", null], ["B2", "midia/B2-foto.jpg"]]);
    expect(files["midia/B2-foto.jpg"]).toEqual(photo);
    expect(json("notas.json")).toEqual([expect.objectContaining({ note: "cliente Joana pediu retorno" })]);
    expect(json("listas-de-contatos.json")).toEqual([expect.objectContaining({ contactListId: 4, name: "Joana Prado" })]);
    expect(json("campanhas.json")).toEqual([expect.objectContaining({ campaignId: 2, state: "delivered" })]);
    expect(Object.keys(files)).toContain("LEIA-ME.txt");
  });
  it("leaves storage fields out and neutralises formulas in the CSV", async () => {
    const files = unzipSync(await build());
    const all = Object.entries(files).filter(([p]) => p.endsWith(".json")).map(([, b]) => strFromU8(b)).join("\n");
    for (const field of ['"pk"', '"sk"', '"gsi1pk"', '"entity"', '"version"', '"mediaKey"']) expect(all).not.toContain(field);
    expect([...files["mensagens.csv"]!.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM: Excel reads the accents
    const csv = strFromU8(files["mensagens.csv"]!).replace(/^\uFEFF/, "");
    expect(csv.startsWith("id,ticketId,createdAt,fromMe,body")).toBe(true);
    expect(csv).toContain(",'=cmd,");
  });
  it("exports a voice note's transcript (issue 33), and whether it was cut", async () => {
    const person = personFixture();
    person.messages.push({ ...person.messages[0]!, id: "C3", mediaType: "audio", body: "", transcript: "quero meu boleto", transcriptCut: true, createdAt: "2026-01-01T10:06:00.000Z" } as never);
    const files = unzipSync(await buildContactExport(person, { exportedAt: "2026-02-01T00:00:00.000Z", readMedia: async () => null }));
    expect(JSON.parse(strFromU8(files["mensagens.json"]!)).at(-1)).toMatchObject({ id: "C3", transcript: "quero meu boleto", transcriptCut: true });
    expect(strFromU8(files["mensagens.csv"]!)).toContain("quero meu boleto");
  });
  it("lists media missing from storage instead of failing", async () => {
    const files = unzipSync(await build(async () => null));
    expect(files["midia/B2-foto.jpg"]).toBeUndefined();
    expect(strFromU8(files["midia/AUSENTES.txt"]!)).toContain("midia/B2-foto.jpg");
  });
});
