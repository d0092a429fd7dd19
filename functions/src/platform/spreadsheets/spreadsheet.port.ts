/**
 * Reading and writing spreadsheets (.xls/.xlsx/.csv). A port because the library (SheetJS, ~0.5 MB minified) is
 * bundled only into the Lambdas that run an upload or a download (ADR 0038): the composition root gets the
 * adapter from the handler that needs it and `spreadsheetsUnavailable` everywhere else.
 */
export type SpreadsheetCodec = {
  /** the first sheet's rows keyed by its header row, cells as stored (no formulas evaluated); throws when unreadable */
  readFirstSheet(input: { bytes: Uint8Array } | { csv: string; separator: string }, maxRows: number): Record<string, unknown>[];
  /** one sheet of rows (the first is the header) as an .xlsx file */
  writeXlsx(sheetName: string, rows: unknown[][]): Uint8Array;
};

/** A Lambda that never reads or writes a spreadsheet: any use is a wiring mistake, loudly. */
export const spreadsheetsUnavailable: SpreadsheetCodec = {
  readFirstSheet: () => {
    throw new Error("spreadsheets are not wired in this Lambda (functions/src/app/lambda-roles.ts)");
  },
  writeXlsx: () => {
    throw new Error("spreadsheets are not wired in this Lambda (functions/src/app/lambda-roles.ts)");
  },
};
