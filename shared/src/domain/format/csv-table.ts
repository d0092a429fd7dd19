/**
 * CSV for exports people open in a spreadsheet: comma-separated, every cell quoted when needed, CRLF line ends,
 * a BOM so Excel reads UTF-8 accents. A cell starting with = + - @ (a formula to a spreadsheet) gets a leading
 * apostrophe, so an exported customer message can never run as a formula (CSV injection).
 */
export type CsvCell = string | number | boolean | null | undefined;

export const csvCell = (value: CsvCell): string => {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const toCsv = (header: string[], rows: CsvCell[][]): string =>
  `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
