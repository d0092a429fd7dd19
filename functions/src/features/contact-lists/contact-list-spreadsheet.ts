import { IMPORT_HEADERS, MAX_IMPORT_ROWS, numberDigits } from "@atende/shared/domain/contact-lists/contact-list";
import { AppError } from "../../platform/errors";
import type { SpreadsheetCodec } from "../../platform/spreadsheets/spreadsheet.port";

export type ImportRow = { name: string; number: string; email: string };
export type ParsedImport = { rows: ImportRow[]; duplicates: number; invalid: number; truncated: boolean };

const pick = (row: Record<string, unknown>, headers: readonly string[]) => {
  for (const h of headers) {
    const v = row[h];
    if (v !== undefined && v !== null && String(v).trim() !== "") return String(v).trim();
  }
  return "";
};

/**
 * Reads the first sheet of an .xls/.xlsx file (SERVER-RULES "Contact-list import"): headers nome, numero/número,
 * email/e-mail in any accepted spelling; numbers reduced to digits; one row per number (later duplicates dropped);
 * rows without a usable number (fewer than 8 digits) counted as invalid. At most MAX_IMPORT_ROWS rows are read.
 * Nothing is evaluated or fetched: SheetJS only reads stored cell values.
 */
export const parseContactSpreadsheet = (sheets: SpreadsheetCodec, bytes: Uint8Array): ParsedImport => {
  // only real workbooks: .xlsx is a zip, .xls an OLE2 compound file (SheetJS would also read text as a sheet)
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const ole = bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (!zip && !ole) throw new AppError("ERR_INVALID_IMPORT_FILE");
  return importRowsOf(readFirstSheet(() => sheets.readFirstSheet({ bytes }, MAX_IMPORT_ROWS + 2)));
};

/**
 * A .csv of contacts (POST /contacts/upload), read by the same rules: UTF-8 text (a BOM is dropped), comma or
 * semicolon separated as Brazilian spreadsheets save it, cells kept as text (a number keeps its leading digits).
 * Binary content is refused.
 */
export const parseContactCsv = (sheets: SpreadsheetCodec, bytes: Uint8Array): ParsedImport => {
  if (bytes.includes(0)) throw new AppError("ERR_INVALID_IMPORT_FILE");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new AppError("ERR_INVALID_IMPORT_FILE");
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const FS = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  return importRowsOf(readFirstSheet(() => sheets.readFirstSheet({ csv: text, separator: FS }, MAX_IMPORT_ROWS + 2)));
};

const readFirstSheet = (read: () => Record<string, unknown>[]): Record<string, unknown>[] => {
  try {
    return read();
  } catch {
    throw new AppError("ERR_INVALID_IMPORT_FILE");
  }
};

/** The header rules on a sheet's rows: digits only, 8 to 50 of them, one row per number. */
const importRowsOf = (rows: Record<string, unknown>[]): ParsedImport => {
  const truncated = rows.length > MAX_IMPORT_ROWS;
  const seen = new Set<string>();
  const out: ImportRow[] = [];
  let duplicates = 0;
  let invalid = 0;
  for (const row of rows.slice(0, MAX_IMPORT_ROWS)) {
    const number = numberDigits(pick(row, IMPORT_HEADERS.number));
    if (number.length < 8 || number.length > 50) {
      invalid++;
      continue;
    }
    if (seen.has(number)) {
      duplicates++;
      continue;
    }
    seen.add(number);
    out.push({ name: pick(row, IMPORT_HEADERS.name).slice(0, 50) || number, number, email: pick(row, IMPORT_HEADERS.email).slice(0, 254) });
  }
  return { rows: out, duplicates, invalid, truncated };
};

/** The "download sample spreadsheet" file: the accepted headers and two example rows. */
export const sampleSpreadsheet = (sheets: SpreadsheetCodec): Uint8Array =>
  sheets.writeXlsx("Contatos", [
    ["Nome", "Numero", "Email"],
    ["Maria Silva", "5511988887777", "maria@exemplo.com.br"],
    ["João Souza", "5521977776666", ""],
  ]);
