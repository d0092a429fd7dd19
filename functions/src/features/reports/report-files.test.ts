import { describe, expect, it } from "vitest";
import * as XLSX from "@e965/xlsx";
import type { ReportRow } from "@atende/shared/contracts/http/reports";
import { collectChunks, createCsvWriter, createXlsxWriter, neutralizeFormula } from "./report-files";

const row = (i: number, over: Partial<ReportRow> = {}): ReportRow => ({
  ticketId: i,
  protocol: `20260310${String(i).padStart(4, "0")}`,
  status: "closed",
  contact: { id: i, name: `Cliente ${i}`, number: `55119${String(i).padStart(8, "0")}` },
  whatsapp: { id: 1, name: "Comercial" },
  queue: { id: 2, name: "Suporte" },
  queuePath: [
    { id: 1, name: "Vendas" },
    { id: 2, name: "Suporte" },
  ],
  user: { id: 3, name: "João" },
  users: [{ id: 3, name: "João" }],
  queuedAt: "2026-03-10T12:00:00.000Z",
  acceptedAt: "2026-03-10T12:04:00.000Z",
  firstResponseAt: null,
  finishedAt: "2026-03-10T13:10:05.000Z",
  waitSeconds: 240,
  firstResponseSeconds: null,
  handlingSeconds: 3965,
  abandoned: false,
  rating: 2,
  ratingRequested: true,
  sla: { firstResponse: "met", nextResponse: null, resolution: "breached", overall: "breached" },
  tags: [{ id: 1, name: "VIP", color: "#f00" }],
  ...over,
});

describe("report files", () => {
  it("neutralises text a spreadsheet would run as a formula", () => {
    expect(["=1+1", "+55 11", "-2", "@SUM(A1)", "\tx", "Ana", "1=1"].map(neutralizeFormula)).toEqual(["'=1+1", "'+55 11", "'-2", "'@SUM(A1)", "'\tx", "Ana", "1=1"]);
  });

  it("writes CSV for Brazilian Excel: BOM, semicolons, CRLF, quoting, wall time, durations", () => {
    const out = collectChunks();
    const w = createCsvWriter(out.sink, { locale: "pt", timeZone: "America/Sao_Paulo" });
    w.rows([row(1, { contact: { id: 1, name: 'Maria; "Ma" Silva\nSP', number: "5511" }, tags: [{ id: 1, name: "-VIP", color: "" }] })]);
    w.end();
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(out.bytes());
    expect(text.startsWith("\uFEFFProtocolo;Ticket;Contato;Número;Conexão;Fila;Caminho de filas;Atendente;Atendentes;Status;Aberto em")).toBe(true);
    const line = text.split("\r\n")[1]!;
    expect(line).toBe(
      '202603100001;1;"Maria; ""Ma"" Silva\nSP";5511;Comercial;Suporte;Vendas > Suporte;João;João;Finalizado;2026-03-10 09:00:00;;2026-03-10 10:10:05;0:04:00;;1:06:05;Não;2;Cumprido;Violado;Violado;\'-VIP',
    );
  });

  it("writes an XLSX that reads back: typed cells, headers in the asked language, many rows", () => {
    const out = collectChunks();
    const w = createXlsxWriter(out.sink, { locale: "es", timeZone: "America/Sao_Paulo" });
    const rows = Array.from({ length: 3000 }, (_, i) => row(i + 1));
    rows[5] = row(6, { contact: { id: 6, name: "=cmd|' /C calc'!A0 <b>&\u0001", number: "1" } });
    for (let i = 0; i < rows.length; i += 500) w.rows(rows.slice(i, i + 500));
    w.end();
    const book = XLSX.read(out.bytes(), { type: "array" });
    const sheet = book.Sheets[book.SheetNames[0]!]!;
    expect(book.SheetNames).toEqual(["Informe"]);
    const data = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    expect(data).toHaveLength(3001);
    expect(data[0]!.slice(0, 3)).toEqual(["Protocolo", "Ticket", "Contacto"]);
    expect(data[3000]![1]).toBe(3000);
    expect(data[6]![2]).toBe("=cmd|' /C calc'!A0 <b>&"); // text as typed (control character dropped), never a formula
    expect(Object.values(sheet).some((c) => typeof c === "object" && c !== null && "f" in c)).toBe(false);
    expect(Math.round((data[1]![15] as number) * 86_400)).toBe(3965);
    const formats = XLSX.read(out.bytes(), { type: "array", cellNF: true }).Sheets.Informe!;
    expect([formats.K2?.z, formats.P2?.z]).toEqual(["yyyy-mm-dd hh:mm:ss", "[h]:mm:ss"]);
    const opened = XLSX.SSF.parse_date_code(data[1]![10] as number);
    expect([opened.H, opened.M]).toEqual([9, 0]);
  });
});
