import * as XLSX from "@e965/xlsx";
import type { SpreadsheetCodec } from "./spreadsheet.port";

/** SheetJS: only stored cell values are read (no formulas, no HTML, no styles), nothing is fetched. */
export const xlsxSpreadsheets: SpreadsheetCodec = {
  readFirstSheet(input, maxRows) {
    const book =
      "bytes" in input
        ? XLSX.read(input.bytes, { type: "buffer", sheetRows: maxRows, cellFormula: false, cellHTML: false, cellStyles: false })
        : XLSX.read(input.csv, { type: "string", raw: true, FS: input.separator, sheetRows: maxRows, cellFormula: false, cellHTML: false });
    const first = book.SheetNames[0];
    const sheet = first ? book.Sheets[first] : undefined;
    if (!sheet) throw new Error("no sheet");
    return XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: "", raw: true });
  },
  writeXlsx(sheetName, rows) {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheetName);
    return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
  },
};
