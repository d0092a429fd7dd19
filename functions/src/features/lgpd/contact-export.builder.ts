import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { toCsv } from "@atende/shared/domain/format/csv-table";
import type { PersonData, RawItem } from "./personal-data.repository";

/**
 * The ZIP a person's export is (LGPD art. 18, access): what we hold about them, as JSON (complete) and CSV (the
 * lists a person or a lawyer opens in a spreadsheet), with the media files of their messages. Written as a
 * stream (fflate): entries go out one by one, media files are read one at a time and stored without
 * recompression (they are compressed already), so memory holds one file, not the whole history.
 */
export type MediaReader = (key: string) => Promise<{ body: Uint8Array; mimetype: string } | null>;
export type ZipSink = (chunk: Uint8Array, final: boolean) => void;

/** Only these fields of each record go into the export: nothing of the storage (keys, index fields, versions). */
const pick = (item: RawItem | null | undefined, fields: readonly string[]): Record<string, unknown> | null => {
  if (!item) return null;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in item) out[f] = item[f];
  return out;
};
const CONTACT_FIELDS = ["id", "name", "number", "email", "profilePicUrl", "isGroup", "lid", "whatsappId", "extraInfo", "createdAt", "updatedAt"] as const;
const TICKET_FIELDS = ["id", "uuid", "status", "queueId", "userId", "whatsappId", "lastMessage", "lastMessageAt", "createdAt", "updatedAt"] as const;
const CYCLE_FIELDS = ["ticketId", "queueId", "userId", "queuedAt", "acceptedAt", "finishedAt", "ratedAt", "rating"] as const;
// `internal`: a whisper (docs/adr/0102), written by the company to its attendant, never sent to the person
const MESSAGE_FIELDS = ["id", "ticketId", "createdAt", "fromMe", "body", "transcript", "transcriptCut", "mediaType", "mediaName", "mediaMimetype", "isDeleted", "isEdited", "ack", "userId", "internal"] as const;
const NOTE_FIELDS = ["id", "ticketId", "userId", "note", "createdAt", "updatedAt"] as const;
const LIST_ITEM_FIELDS = ["id", "contactListId", "name", "number", "email", "isWhatsappValid", "createdAt"] as const;
const SHIPPING_FIELDS = ["campaignId", "itemId", "number", "name", "email", "state", "confirmationRequestedAt", "confirmedAt", "deliveredAt", "error", "createdAt"] as const;
const SCHEDULE_FIELDS = ["id", "body", "sendAt", "sentAt", "status", "createdAt"] as const;
const OPT_OUT_FIELDS = ["number", "optedOutAt", "message", "source", "campaignId"] as const;

const README = [
  "Exportação de dados pessoais (LGPD, art. 18) — Export of personal data — Exportación de datos personales",
  "",
  "pt: contato.json (cadastro), atendimentos.json/.csv (tickets), avaliacoes.json, mensagens.json/.csv (e midia/),",
  "    notas.json (notas internas), listas-de-contatos.json/.csv, campanhas.json/.csv (envios), agendamentos.json, opt-out.json.",
  "en: contato.json (contact), atendimentos (tickets), avaliacoes (ratings), mensagens (messages, files in midia/),",
  "    notas (internal notes), listas-de-contatos (contact-list entries), campanhas (campaign shippings), agendamentos (scheduled messages).",
  "es: contato.json (contacto), atendimentos (tickets), avaliacoes (valoraciones), mensagens (mensajes, archivos en midia/),",
  "    notas (notas internas), listas-de-contatos (listas), campanhas (envíos de campañas), agendamentos (mensajes programados).",
  "",
].join("\r\n");

const safeName = (s: string) => s.replace(/[^\w.\-]+/g, "_").slice(-80) || "arquivo";
/** The path a message's media file has inside the ZIP (shared by the CSV's `file` column and the entry). */
export const mediaPathOf = (m: RawItem): string | null =>
  typeof m.mediaKey === "string" && m.mediaKey ? `midia/${safeName(String(m.id))}-${safeName(String(m.mediaKey).split("/").pop() ?? "")}` : null;

const byTime = (a: RawItem, b: RawItem) => String(a.createdAt ?? "").localeCompare(String(b.createdAt ?? ""));

/** The JSON and CSV entries of the export (everything but the media bytes), in the order they are written. */
export const exportEntries = (data: PersonData, exportedAt: string): { path: string; text: string }[] => {
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  const tickets = [...data.tickets].sort(byTime).map((t) => pick(t, TICKET_FIELDS)!);
  const ratings = data.cycles.filter((c) => c.rating !== null && c.rating !== undefined).map((c) => pick(c, CYCLE_FIELDS)!);
  const messages = [...data.messages].sort(byTime).map((m) => ({ ...pick(m, MESSAGE_FIELDS)!, file: mediaPathOf(m) }));
  const listItems = data.listItems.map((i) => pick(i, LIST_ITEM_FIELDS)!);
  const shippings = data.shippings.map((s) => pick(s, SHIPPING_FIELDS)!);
  const cell = (r: Record<string, unknown>, f: string) => r[f] as string | number | boolean | null | undefined;
  const csv = (rows: Record<string, unknown>[], fields: readonly string[]) => toCsv([...fields], rows.map((r) => fields.map((f) => cell(r, f))));
  return [
    { path: "LEIA-ME.txt", text: README },
    { path: "contato.json", text: json({ exportedAt, contact: pick(data.contact, CONTACT_FIELDS), optOut: pick(data.optOut, OPT_OUT_FIELDS) }) },
    { path: "atendimentos.json", text: json(tickets) },
    { path: "atendimentos.csv", text: csv(tickets, TICKET_FIELDS) },
    { path: "avaliacoes.json", text: json(ratings) },
    { path: "mensagens.json", text: json(messages) },
    { path: "mensagens.csv", text: csv(messages, [...MESSAGE_FIELDS, "file"]) },
    { path: "notas.json", text: json(data.notes.map((n) => pick(n, NOTE_FIELDS))) },
    { path: "listas-de-contatos.json", text: json(listItems) },
    { path: "listas-de-contatos.csv", text: csv(listItems, LIST_ITEM_FIELDS) },
    { path: "campanhas.json", text: json(shippings) },
    { path: "campanhas.csv", text: csv(shippings, SHIPPING_FIELDS) },
    { path: "agendamentos.json", text: json(data.schedules.map((s) => pick(s, SCHEDULE_FIELDS))) },
  ];
};

/**
 * Streams the ZIP into `sink`. `onProgress(done, total)` after each entry (media files count one each).
 * A media file missing from storage (expired, already deleted) is listed in `midia/AUSENTES.txt` instead.
 */
export const streamContactExport = async (
  data: PersonData,
  opts: { exportedAt: string; readMedia: MediaReader; sink: ZipSink; onProgress?: (done: number, total: number) => Promise<void> | void },
): Promise<void> => {
  let failure: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else opts.sink(chunk, final);
  });
  const entries = exportEntries(data, opts.exportedAt);
  const media = data.messages.filter((m) => mediaPathOf(m) !== null);
  const total = entries.length + media.length;
  let done = 0;
  const addBytes = (path: string, bytes: Uint8Array, compress: boolean) => {
    const file = compress ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
    zip.add(file);
    file.push(bytes, true);
  };
  for (const e of entries) {
    addBytes(e.path, strToU8(e.text), true);
    await opts.onProgress?.(++done, total);
  }
  const missing: string[] = [];
  for (const m of media) {
    const obj = await opts.readMedia(String(m.mediaKey));
    if (obj) addBytes(mediaPathOf(m)!, obj.body, false);
    else missing.push(mediaPathOf(m)!);
    await opts.onProgress?.(++done, total);
  }
  if (missing.length) addBytes("midia/AUSENTES.txt", strToU8(`${missing.join("\r\n")}\r\n`), true);
  zip.end();
  if (failure) throw failure;
};

/** The whole ZIP in memory (background jobs store it; tests unzip it). */
export const buildContactExport = async (data: PersonData, opts: Omit<Parameters<typeof streamContactExport>[1], "sink">): Promise<Uint8Array> => {
  const chunks: Uint8Array[] = [];
  await streamContactExport(data, { ...opts, sink: (c) => void chunks.push(c) });
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};
