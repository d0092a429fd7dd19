import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { SearchHit } from "@atende/shared/contracts/http/search";
import { parseQuery } from "@atende/shared/domain/search/text-search";
import { corpus, MARKED } from "@atende/shared/domain/search/pt-corpus.fixtures";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";
import { adminTickets, customerMessage, deliver } from "../../testing/inbox-fixtures";
import { createSearchIndexRepository } from "./search-index.repository";

/** Full-text search over the API (docs/adr/0035): the write path, visibility, tenants, erasure, and the index's recall. */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", ERASURE_HASH_SECRET: "x".repeat(40) });
  a = await createTenant(t);
  b = await createTenant(t);
});

const newNumber = () => `55119${String(60000000 + ++seq * 13 + Math.floor(Math.random() * 7)).padStart(8, "0")}`;
/** A customer writes `bodies` (the first picks nothing: the ticket stays queue-less unless `choice`). */
const conversation = async (tenant: Tenant, bodies: string[], opts: { choice?: 1 | 2; name?: string } = {}) => {
  const number = newNumber();
  const ids: string[] = [];
  await deliver(t, customerMessage(tenant, { number, body: "oi", pushName: opts.name ?? `Cliente ${seq}` }));
  if (opts.choice) await deliver(t, customerMessage(tenant, { number, body: String(opts.choice) }));
  for (const [i, body] of bodies.entries()) {
    // one second apart, so the conversation's order is the order written
    const e = customerMessage(tenant, { number, body, pushName: opts.name ?? `Cliente ${seq}`, extra: { timestamp: Math.floor(t.clock.now.getTime() / 1000) - 100 + i } });
    ids.push((e as { message: { id: string } }).message.id);
    await deliver(t, e);
  }
  const ticket = (await adminTickets(t, tenant)).find((x) => x.contact.number === number)!;
  return { ticket, number, ids };
};
const search = async (token: string, q: string) => {
  const res = await t.call("GET", `/search?q=${encodeURIComponent(q)}`, { token });
  expect(res.status).toBe(200);
  return res.body.results as SearchHit[];
};
const marked = (hit: SearchHit) => hit.snippet.filter((s) => s.match).map((s) => s.text);

describe("GET /search", () => {
  it("finds an older message of a conversation as a ticket with a highlighted snippet (accents, case, plurals, prefix)", async () => {
    const { ticket, ids } = await conversation(a, ["Bom dia, meu BOLETO está vencido desde março", "Alguém pode me ajudar?", "Obrigada"]);
    for (const q of ["boleto", "boletos vencidos", "Boléto VENC", "bol"]) {
      const hits = await search(a.adminToken, q);
      const hit = hits.find((h) => h.ticketId === ticket.id);
      expect(hit, q).toMatchObject({ field: "message", message: { id: ids[0], fromMe: false }, contact: { id: ticket.contact.id } });
      expect(marked(hit!)).toContain("BOLETO");
    }
    const hit = (await search(a.adminToken, "boleto vencido")).find((h) => h.ticketId === ticket.id)!;
    expect(marked(hit)).toEqual(["BOLETO", "vencido"]);
    // the snippet is text in segments, never markup
    expect(hit.snippet.map((s) => s.text).join("")).toBe("Bom dia, meu BOLETO está vencido desde março");
    expect(await search(a.adminToken, "boleto pago")).not.toEqual(expect.arrayContaining([expect.objectContaining({ ticketId: ticket.id })]));
  });

  it("ranks the words together as typed (any form) above the same words apart, ahead of recency", async () => {
    const together = await conversation(a, ["a mensalidade atrasada de março"]);
    const apart = await conversation(a, ["a mensalidade de março, que já paguei, aparece como atrasada"]);
    const prefixOnly = await conversation(a, ["mensalidades atrasadas"]); // plural forms: the same stems, still whole words
    const hits = (await search(a.adminToken, "mensalidade atrasada")).map((h) => h.ticketId);
    expect(hits.indexOf(together.ticket.id)).toBeGreaterThanOrEqual(0);
    expect(hits.indexOf(together.ticket.id)).toBeLessThan(hits.indexOf(apart.ticket.id));
    expect(hits.indexOf(prefixOnly.ticket.id)).toBeLessThan(hits.indexOf(apart.ticket.id));
    const typing = (await search(a.adminToken, "mensal")).map((h) => h.ticketId);
    expect(typing).toEqual(expect.arrayContaining([together.ticket.id, apart.ticket.id, prefixOnly.ticket.id]));
  });

  it("keeps a customer's markup as plain text in the snippet", async () => {
    const { ticket } = await conversation(a, ['<img src=x onerror="alert(1)"> reembolso pendente']);
    const hit = (await search(a.adminToken, "reembolso")).find((h) => h.ticketId === ticket.id)!;
    expect(hit.snippet.map((s) => s.text).join("")).toBe('<img src=x onerror="alert(1)"> reembolso pendente');
    expect(marked(hit)).toEqual(["reembolso"]);
  });

  it("finds a ticket by contact name and by part of the number", async () => {
    const { ticket, number } = await conversation(a, ["tudo certo"], { name: "Rosângela Quintanilha" });
    expect((await search(a.adminToken, "rosangela quint")).find((h) => h.ticketId === ticket.id)).toMatchObject({ field: "contact" });
    const byNumber = (await search(a.adminToken, number.slice(4, 10))).find((h) => h.ticketId === ticket.id);
    expect(byNumber).toMatchObject({ field: "contact" });
    expect(marked(byNumber!)).toEqual([number]);
    // the protocol of the ticket's cycle is indexed with its identity (ADR 0055: it was read from a field tickets lack)
    const protocol = (await t.call("GET", `/tickets/${ticket.id}`, { token: a.adminToken })).body.protocol as string;
    expect(protocol).toMatch(/^\d{9,}$/);
    const byProtocol = (await search(a.adminToken, protocol)).find((h) => h.ticketId === ticket.id);
    expect(byProtocol).toMatchObject({ field: "protocol", protocol });
    expect(marked(byProtocol!)).toEqual([protocol]);
  });

  it("indexes an audio's transcript when the bot stores it", async () => {
    const { ticket, ids } = await conversation(a, ["[áudio]"]);
    await t.container.services.inbox.bots.saveTranscript(a.company.id, ticket.id, ids[0]!, "quero renegociar a dívida do cartão");
    const hit = (await search(a.adminToken, "renegociar divida")).find((h) => h.ticketId === ticket.id);
    expect(hit).toMatchObject({ field: "message", message: { id: ids[0] } });
    expect(marked(hit!)).toEqual(["renegociar", "dívida"]);
  });

  it("respects who may see which ticket: the attendant sees their queue's tickets only, the admin all", async () => {
    const mine = await conversation(a, ["meu medidor de água quebrou"], { choice: 1 });
    const other = await conversation(a, ["o medidor de gás quebrou"], { choice: 2 });
    const queueless = await conversation(a, ["medidor de energia quebrou"]);
    const user = (await search(a.userToken, "medidor")).map((h) => h.ticketId);
    expect(user).toContain(mine.ticket.id);
    expect(user).not.toContain(other.ticket.id);
    expect(user).not.toContain(queueless.ticket.id);
    const admin = (await search(a.adminToken, "medidor quebrou")).map((h) => h.ticketId);
    expect(admin).toEqual(expect.arrayContaining([mine.ticket.id, other.ticket.id, queueless.ticket.id]));
  });

  it("never answers with another company's tickets (cross-tenant)", async () => {
    const { ticket } = await conversation(a, ["contrato de locação número sete"]);
    expect((await search(a.adminToken, "locação")).map((h) => h.ticketId)).toContain(ticket.id);
    expect(await search(b.adminToken, "locação")).toEqual([]);
    const inTicket = await t.call("GET", `/search/tickets/${ticket.id}?q=locacao`, { token: b.adminToken });
    expect(inTicket.status).toBeGreaterThanOrEqual(403);
    expect(inTicket.body.matches).toBeUndefined();
  });

  it("follows edits, deletions and renames on the write path", async () => {
    const { ticket, number } = await conversation(a, ["preciso de um orçamento"], { choice: 1, name: "Teodoro Antigo" });
    const sent = await t.call("POST", `/messages/${ticket.id}`, { token: a.adminToken, body: { body: "enviei a proposta comercial" } });
    expect(sent.status).toBe(201);
    expect((await search(a.adminToken, "proposta")).map((h) => h.ticketId)).toContain(ticket.id);
    const edited = await t.call("POST", `/messages/edit/${sent.body.id}`, { token: a.adminToken, body: { body: "enviei o catálogo comercial" } });
    expect(edited.status).toBe(200);
    expect((await search(a.adminToken, "proposta")).map((h) => h.ticketId)).not.toContain(ticket.id);
    expect((await search(a.adminToken, "catalogo")).map((h) => h.ticketId)).toContain(ticket.id);
    expect((await t.call("DELETE", `/messages/${sent.body.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await search(a.adminToken, "catalogo")).map((h) => h.ticketId)).not.toContain(ticket.id);

    const renamed = await t.call("PUT", `/contacts/${ticket.contact.id}`, { token: a.adminToken, body: { name: "Teodora Nova", number } });
    expect(renamed.status).toBe(200);
    expect((await search(a.adminToken, "teodora")).find((h) => h.ticketId === ticket.id)).toMatchObject({ field: "contact" });
    expect((await search(a.adminToken, "antigo")).map((h) => h.ticketId)).not.toContain(ticket.id);
  });

  it("forgets an erased person (LGPD): no result, no index entry holding the number", async () => {
    const { ticket, number } = await conversation(a, ["minha senha do portal expirou"], { name: "Erasmina Lopes" });
    expect((await search(a.adminToken, "senha portal")).map((h) => h.ticketId)).toContain(ticket.id);
    expect((await t.call("PUT", `/tickets/${ticket.id}`, { token: a.adminToken, body: { status: "closed" } })).status).toBe(200);
    const erased = await t.call("DELETE", `/contacts/${ticket.contact.id}?erase=true`, { token: a.adminToken });
    expect(erased.status).toBe(200);
    expect((await search(a.adminToken, "senha portal")).map((h) => h.ticketId)).not.toContain(ticket.id);
    expect(await search(a.adminToken, number.slice(-8))).toEqual([]);
    expect(await search(a.adminToken, "erasmina")).toEqual([]);
  });

  it("answers a validation error without a query", async () => {
    const res = await t.call("GET", "/search", { token: a.adminToken });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^ERR_/);
    expect((await t.call("GET", "/search?q=boleto")).status).toBe(401);
  });
});

describe("backfill", () => {
  it("indexes a company's existing history again (idempotent), and only that company's", async () => {
    const c = await createTenant(t);
    const { ticket, ids } = await conversation(c, ["quero o estorno da taxa de adesão"]);
    const index = createSearchIndexRepository(t.container.db);
    // history from before the index: its entries gone
    await index.remove(c.company.id, [...ids.map((id) => `m:${id}`), `t:${ticket.id}`]);
    expect(await search(c.adminToken, "estorno adesao")).toEqual([]);
    expect(await t.container.services.searchBackfill(c.company.id)).toMatchObject({ contacts: 1 });
    expect((await search(c.adminToken, "estorno adesao")).map((h) => h.ticketId)).toEqual([ticket.id]);
    expect((await search(c.adminToken, ticket.contact.name)).map((h) => h.ticketId)).toEqual([ticket.id]);
    await t.container.services.searchBackfill(c.company.id);
    expect((await search(c.adminToken, "estorno")).map((h) => h.ticketId)).toEqual([ticket.id]);
    expect(await search(a.adminToken, "estorno adesao")).toEqual([]);
  });
});

describe("GET /tickets?searchParam= reaches the whole history (spec clients)", () => {
  it("finds a ticket whose matching message is not the last one", async () => {
    const { ticket } = await conversation(a, ["a fatura de dezembro veio duplicada", "ok", "aguardo retorno"]);
    const res = await t.call("GET", `/tickets?searchParam=${encodeURIComponent("duplicada")}&showAll=true`, { token: a.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.tickets.map((x: { id: number }) => x.id)).toContain(ticket.id);
    const other = await t.call("GET", `/tickets?searchParam=${encodeURIComponent("duplicada")}&showAll=true`, { token: b.adminToken });
    expect(other.body.tickets).toEqual([]);
  });
});

describe("GET /search/tickets/{id} (search inside a conversation)", () => {
  it("lists the conversation's matching messages oldest first", async () => {
    const { ticket, ids } = await conversation(a, ["a entrega atrasou", "cadê a encomenda?", "a entrega chegou, obrigado"], { choice: 1 });
    const res = await t.call("GET", `/search/tickets/${ticket.id}?q=entrega`, { token: a.userToken });
    expect(res.status).toBe(200);
    expect(res.body.matches.map((m: { id: string }) => m.id)).toEqual([ids[0], ids[2]]);
    const other = await conversation(a, ["a entrega atrasou"], { choice: 2 });
    expect((await t.call("GET", `/search/tickets/${other.ticket.id}?q=entrega`, { token: a.userToken })).body).toEqual({ error: "ERR_NO_PERMISSION" });
  });
});

describe("the index on a Portuguese corpus (DynamoDB Local, the same code as AWS)", () => {
  it("recalls plurals, accents and prefixes; re-indexing an unchanged document writes nothing", async () => {
    const index = createSearchIndexRepository(t.container.db);
    const companyId = 900_000 + Math.floor(Math.random() * 1000);
    const docs = corpus(400, 11);
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < docs.length; i += 20) {
      await Promise.all(
        docs.slice(i, i + 20).map((d, k) =>
          index.put({ docId: `m:${d.id}`, companyId, ticketId: d.conversation, contactId: d.conversation, at: new Date(base + (i + k) * 60_000).toISOString(), text: d.body, numbers: [] }),
        ),
      );
    }
    const ids = async (q: string) => (await index.query(companyId, parseQuery(q), 200)).map((p) => p.docId.slice(2));
    expect(await ids("boleto vencido")).toEqual(expect.arrayContaining(["mk-boleto-vencido", "mk-boletos-vencidos"]));
    expect(await ids("segunda via")).toContain("mk-segunda-via");
    expect(await ids("notificações")).toContain("mk-notificacao");
    expect(await ids("INSTALACAO marco")).toContain("mk-acentos");
    expect(await ids("cartão recus")).toContain("mk-cartoes");
    const vencidos = await ids("vencid");
    expect(vencidos).toEqual(expect.arrayContaining(["mk-boleto-vencido", "mk-boletos-vencidos"]));
    // every answer holds every word
    const texts = new Map(docs.map((d) => [d.id, d.body]));
    for (const id of await ids("boleto vencido")) expect(texts.get(id)!.toLowerCase()).toMatch(/bolet/);
    // another company sees nothing
    expect(await index.query(companyId + 1, parseQuery("boleto"), 50)).toEqual([]);
    // re-indexing unchanged documents writes nothing
    const before = index.stats.writes;
    await index.put({ docId: `m:${docs[0]!.id}`, companyId, ticketId: docs[0]!.conversation, contactId: docs[0]!.conversation, at: new Date(base).toISOString(), text: docs[0]!.body, numbers: [] });
    expect(index.stats.writes).toBe(before);
    expect(MARKED.length).toBeGreaterThan(0);
  });
});

describe("the index's keys (docs/adr/0041)", () => {
  const partition = async (companyId: number, key: string) => {
    const out = await t.container.db.doc.send(
      new QueryCommand({ TableName: t.container.db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `CO#${companyId}#SW#${key}#0` } }),
    );
    return (out.Items ?? []).map((i) => String(i.d));
  };

  it("stores a new message as one BatchWriteItem: a posting under each word's first 3 and 5 letters and the document", async () => {
    const index = createSearchIndexRepository(t.container.db);
    const companyId = 910_000 + Math.floor(Math.random() * 1000);
    const sent: string[] = [];
    const db = t.container.db;
    const counted = createSearchIndexRepository({
      tableName: db.tableName,
      doc: { send: (cmd: object) => (sent.push(cmd.constructor.name), db.doc.send(cmd as never)) } as unknown as typeof db.doc,
    });
    const doc = { docId: "m:k1", companyId, ticketId: 1, contactId: 1, at: "2026-01-01T00:00:00.000Z", text: "Meu boleto está vencido, via pix", numbers: [] };
    expect(counted.itemsOf(doc)).toHaveLength(7); // bol, bolet, ven, venci, via, pix + the document
    await counted.put(doc, { isNew: true });
    expect(sent).toEqual(["BatchWriteCommand"]);
    expect(await partition(companyId, "bolet")).toEqual(["m:k1"]);
    expect(await partition(companyId, "ven")).toEqual(["m:k1"]);
    for (const q of ["boleto", "bol", "vencido pix", "venc", "boletos vencidas", "via"]) {
      expect((await index.query(companyId, parseQuery(q), 10)).map((p) => p.docId), q).toEqual(["m:k1"]);
    }
    expect(await index.query(companyId, parseQuery("boleto pago"), 10)).toEqual([]);
  });

  it("the backfill moves a version-1 document to the new keys: the term and 4-letter keys it no longer has are deleted", async () => {
    const index = createSearchIndexRepository(t.container.db);
    const companyId = 920_000 + Math.floor(Math.random() * 1000);
    const at = "2026-01-01T00:00:00.000Z";
    // as version 1 stored "boleto vencido": the term and its first 3, 4, 5 letters
    const v1Keys = ["bolet", "bol", "bole", "vencid", "ven", "venc", "venci"];
    const w = " bolet vencid ";
    await t.container.db.doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [t.container.db.tableName]: [
            ...v1Keys.map((k) => ({ PutRequest: { Item: { pk: `CO#${companyId}#SW#${k}#0`, sk: `${at}#m:old`, entity: "searchPosting", d: "m:old", tk: 5, ct: 5, at, w } } })),
            { PutRequest: { Item: { pk: `CO#${companyId}#SDOC#m:old`, sk: "DOC", entity: "searchDoc", keys: v1Keys, at, tk: 5, ct: 5 } } },
          ],
        },
      }),
    );
    // read before the backfill: the new keys are a subset of the old ones
    expect((await index.query(companyId, parseQuery("boleto venc"), 10)).map((p) => p.docId)).toEqual(["m:old"]);
    await index.put({ docId: "m:old", companyId, ticketId: 5, contactId: 5, at, text: "boleto vencido", numbers: [] }, { repair: true });
    for (const gone of ["bole", "vencid", "venc"]) expect(await partition(companyId, gone), gone).toEqual([]);
    for (const kept of ["bolet", "bol", "ven", "venci"]) expect(await partition(companyId, kept), kept).toEqual(["m:old"]);
    expect((await index.query(companyId, parseQuery("boleto venc"), 10)).map((p) => p.docId)).toEqual(["m:old"]);
    await index.remove(companyId, ["m:old"]);
    for (const k of v1Keys) expect(await partition(companyId, k), k).toEqual([]);
  });
});
