import { constants, crc32, deflateRawSync } from "node:zlib";
import type { ReportRow } from "@atende/shared/contracts/http/reports";
import { clockDuration, reportColumns, wallTimeIn, type ReportColumn, type ReportLocale } from "@atende/shared/domain/reports/report-columns";

/**
 * The report's files, written as a stream of chunks (docs/adr/0034-reports.md): rows go in a few hundred at a time and
 * leave as bytes, so an export of 100,000 cycles never holds more than its output.
 *
 * - CSV for Brazilian Excel: UTF-8 with BOM, `;` between cells (Excel in pt-BR reads `,` as the decimal comma and
 *   uses `;` as its list separator), CRLF, quoted when needed; a text cell starting with = + - @ (or a tab or CR) is
 *   prefixed with `'` so no spreadsheet runs it as a formula (the data comes from customers).
 * - XLSX: the OOXML parts written by hand, the sheet deflated 64 KB at a time as it is written (node:zlib, built into
 *   Node: each piece ends with a sync flush, the last with the final block, so the pieces form one deflate stream),
 *   in a zip whose headers carry the sizes (no data descriptors: every reader takes it): one sheet, inline strings (no
 *   shared strings table to hold in memory; a text cell is never a formula), dates and durations as numbers with formats.
 */
export type ReportFileWriter = { rows(rows: readonly ReportRow[]): void; end(): void };
export type ChunkSink = (chunk: Uint8Array) => void;
export type ReportFileFormat = "csv" | "xlsx";

const FORMULA_START = /^[=+\-@\t\r]/;
/** A text that a spreadsheet would read as a formula gets a leading apostrophe. */
export const neutralizeFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);
const csvCell = (text: string) => {
  const safe = neutralizeFormula(text);
  return /[;"\r\n,]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const FLUSH_AT = 64 * 1024;
const strToU8 = (text: string): Uint8Array => Buffer.from(text, "utf8");

export const createCsvWriter = (sink: ChunkSink, opts: { locale: ReportLocale; timeZone: string }): ReportFileWriter => {
  const columns = reportColumns(opts.locale);
  const wall = wallTimeIn(opts.timeZone);
  const cell = (col: ReportColumn, r: ReportRow) => {
    const v = col.value(r);
    if (v === null || v === "") return "";
    if (col.kind === "date") return wall.text(String(v));
    if (col.kind === "duration") return clockDuration(Number(v));
    if (col.kind === "number") return String(v);
    return csvCell(String(v));
  };
  let buffer = "\uFEFF" + columns.map((c) => csvCell(c.header[opts.locale])).join(";") + "\r\n";
  const flush = () => {
    if (buffer) sink(strToU8(buffer));
    buffer = "";
  };
  return {
    rows(rows) {
      for (const r of rows) {
        buffer += columns.map((c) => cell(c, r)).join(";") + "\r\n";
        if (buffer.length >= FLUSH_AT) flush();
      }
    },
    end: flush,
  };
};

/** Anything XML must escape or drop; most cells have none and are written as they are. */
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const xml = (text: string) =>
  !XML_SPECIAL.test(text)
    ? text
    : text
    // characters XML 1.0 cannot hold (control characters a customer may have typed) are dropped
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
const colName = (i: number) => {
  let n = i + 1;
  let s = "";
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
};
/** Excel's serial day of a wall time (days since 1899-12-30). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const serial = (localMs: number) => (localMs - EXCEL_EPOCH) / 86_400_000;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const workbook = (sheetName: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
/** Styles: 0 default, 1 bold header, 2 date-time, 3 duration [h]:mm:ss. */
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="165" formatCode="[h]:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;
const SHEET_NAMES: Record<ReportLocale, string> = { pt: "Relatório", en: "Report", es: "Informe" };

/** A zip of a few entries written with known sizes: the small parts at once, the sheet deflated chunk by chunk. */
const createZip = (sink: ChunkSink) => {
  const central: Uint8Array[] = [];
  let offset = 0;
  let entries = 0;
  const u16 = (v: DataView, at: number, n: number) => v.setUint16(at, n, true);
  const u32 = (v: DataView, at: number, n: number) => v.setUint32(at, n >>> 0, true);
  const emit = (name: string, crc: number, size: number, data: Uint8Array[]) => {
    const fileName = strToU8(name);
    const compressed = data.reduce((n, d) => n + d.length, 0);
    const local = new Uint8Array(30 + fileName.length);
    const lv = new DataView(local.buffer);
    u32(lv, 0, 0x04034b50);
    u16(lv, 4, 20);
    u16(lv, 6, 0x0800); // names in UTF-8
    u16(lv, 8, 8); // deflate
    u16(lv, 10, 0);
    u16(lv, 12, 0x21); // 1980-01-01
    u32(lv, 14, crc);
    u32(lv, 18, compressed);
    u32(lv, 22, size);
    u16(lv, 26, fileName.length);
    local.set(fileName, 30);
    const dir = new Uint8Array(46 + fileName.length);
    const dv = new DataView(dir.buffer);
    u32(dv, 0, 0x02014b50);
    u16(dv, 4, 20);
    u16(dv, 6, 20);
    u16(dv, 8, 0x0800);
    u16(dv, 10, 8);
    u16(dv, 14, 0x21);
    u32(dv, 16, crc);
    u32(dv, 20, compressed);
    u32(dv, 24, size);
    u16(dv, 28, fileName.length);
    u32(dv, 42, offset);
    dir.set(fileName, 46);
    central.push(dir);
    sink(local);
    for (const d of data) sink(d);
    offset += local.length + compressed;
    entries++;
  };
  return {
    add(name: string, text: string) {
      const bytes = strToU8(text);
      emit(name, crc32(bytes), bytes.length, [deflateRawSync(bytes, { level: 6 })]);
    },
    /** An entry written in pieces: its compressed chunks are held until its end (they are the output). */
    stream(name: string) {
      const chunks: Uint8Array[] = [];
      let crc = 0;
      let size = 0;
      return {
        push(text: string, final: boolean) {
          const bytes = strToU8(text);
          crc = crc32(bytes, crc);
          size += bytes.length;
          chunks.push(deflateRawSync(bytes, { level: 6, finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH }));
          if (final) emit(name, crc, size, chunks);
        },
      };
    },
    end() {
      const size = central.reduce((n, d) => n + d.length, 0);
      for (const d of central) sink(d);
      const end = new Uint8Array(22);
      const ev = new DataView(end.buffer);
      u32(ev, 0, 0x06054b50);
      u16(ev, 8, entries);
      u16(ev, 10, entries);
      u32(ev, 12, size);
      u32(ev, 16, offset);
      sink(end);
    },
  };
};

export const createXlsxWriter = (sink: ChunkSink, opts: { locale: ReportLocale; timeZone: string }): ReportFileWriter => {
  const columns = reportColumns(opts.locale);
  const wall = wallTimeIn(opts.timeZone);
  const zip = createZip(sink);
  zip.add("[Content_Types].xml", CONTENT_TYPES);
  zip.add("_rels/.rels", ROOT_RELS);
  zip.add("xl/workbook.xml", workbook(SHEET_NAMES[opts.locale]));
  zip.add("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
  zip.add("xl/styles.xml", STYLES);
  const sheet = zip.stream("xl/worksheets/sheet1.xml");

  const refs = columns.map((_, i) => colName(i));
  let rowNo = 1;
  const text = (ref: string, v: string, style = 0) => `<c r="${ref}"${style ? ` s="${style}"` : ""} t="inlineStr"><is><t xml:space="preserve">${xml(v)}</t></is></c>`;
  let buffer =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>` +
    `<row r="1">${columns.map((c, i) => text(`${refs[i]}1`, c.header[opts.locale], 1)).join("")}</row>`;
  const flush = (final = false) => {
    sheet.push(buffer, final);
    buffer = "";
  };
  const cell = (col: ReportColumn, ref: string, r: ReportRow) => {
    const v = col.value(r);
    if (v === null || v === "") return "";
    if (col.kind === "date") return `<c r="${ref}" s="2"><v>${serial(wall.localMs(String(v)))}</v></c>`;
    if (col.kind === "duration") return `<c r="${ref}" s="3"><v>${Number(v) / 86_400}</v></c>`;
    if (col.kind === "number") return `<c r="${ref}"><v>${Number(v)}</v></c>`;
    return text(ref, String(v));
  };
  return {
    rows(rows) {
      for (const r of rows) {
        rowNo++;
        buffer += `<row r="${rowNo}">${columns.map((c, i) => cell(c, `${refs[i]}${rowNo}`, r)).join("")}</row>`;
        if (buffer.length >= FLUSH_AT) flush();
      }
    },
    end() {
      buffer += `</sheetData></worksheet>`;
      flush(true);
      zip.end();
    },
  };
};

export const reportFileWriter = (format: ReportFileFormat, sink: ChunkSink, opts: { locale: ReportLocale; timeZone: string }) =>
  format === "csv" ? createCsvWriter(sink, opts) : createXlsxWriter(sink, opts);

export const REPORT_MIME: Record<ReportFileFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** Collects a writer's chunks into one body (what storage takes). */
export const collectChunks = () => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    sink: (c: Uint8Array) => {
      chunks.push(c);
      size += c.length;
    },
    bytes: () => {
      const out = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.length;
      }
      return out;
    },
    get size() {
      return size;
    },
  };
};
