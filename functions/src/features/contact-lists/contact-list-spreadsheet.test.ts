import * as XLSX from "@e965/xlsx";
import { describe, expect, it } from "vitest";
import { addCampaignVariable } from "@atende/shared/domain/campaign-settings/campaign-settings";
import { MAX_IMPORT_ROWS } from "@atende/shared/domain/contact-lists/contact-list";
import { xlsxSpreadsheets } from "../../platform/spreadsheets/xlsx.adapter";
import { parseContactSpreadsheet as parseWith, sampleSpreadsheet as sampleWith } from "./contact-list-spreadsheet";

const parseContactSpreadsheet = (bytes: Uint8Array) => parseWith(xlsxSpreadsheets, bytes);
const sampleSpreadsheet = () => sampleWith(xlsxSpreadsheets);

const xlsx = (rows: unknown[][]) => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "A");
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
};

describe("contact spreadsheet import", () => {
  it("keeps digits only, names a nameless row by its number and ignores unknown columns", () => {
    const parsed = parseContactSpreadsheet(xlsx([["Número", "Cidade", "nome"], ["(11) 98888-7777", "SP", ""], ["+55 21 97777-6666", "RJ", "Rio"]]));
    expect(parsed.rows).toEqual([
      { name: "11988887777", number: "11988887777", email: "" },
      { name: "Rio", number: "5521977776666", email: "" },
    ]);
  });

  it("reads at most MAX_IMPORT_ROWS rows and says it stopped", () => {
    const rows = [["numero"], ...Array.from({ length: MAX_IMPORT_ROWS + 5 }, (_, i) => [String(5511900000000 + i)])];
    const parsed = parseContactSpreadsheet(xlsx(rows));
    expect(parsed.rows).toHaveLength(MAX_IMPORT_ROWS);
    expect(parsed.truncated).toBe(true);
  });

  it("refuses bytes that are not a workbook", () => {
    expect(() => parseContactSpreadsheet(new TextEncoder().encode("nome;numero\nAna;5511988887777"))).toThrow(expect.objectContaining({ code: "ERR_INVALID_IMPORT_FILE" }));
    expect(() => parseContactSpreadsheet(new Uint8Array([0x50, 0x4b, 1, 2, 3]))).toThrow(expect.objectContaining({ code: "ERR_INVALID_IMPORT_FILE" }));
  });

  it("the sample spreadsheet has the accepted headers", () => {
    expect(parseContactSpreadsheet(sampleSpreadsheet()).rows.map((r) => r.number)).toEqual(["5511988887777", "5521977776666"]);
  });
});

describe("campaign variables", () => {
  it("adds a variable only when its key is new", () => {
    const one = addCampaignVariable([], { key: " loja ", value: "Centro" });
    expect(one).toEqual([{ key: "loja", value: "Centro" }]);
    expect(addCampaignVariable(one!, { key: "loja", value: "Outra" })).toBeNull();
  });
});
