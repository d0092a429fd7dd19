import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv-table";

describe("csv-table", () => {
  it("quotes cells with commas, quotes and line breaks", () => {
    expect(csvCell('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
    expect(csvCell(12)).toBe("12");
  });
  it("neutralises formulas (CSV injection)", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvCell("+5511")).toBe("'+5511");
    expect(csvCell("-1")).toBe("'-1");
  });
  it("writes a BOM, a header and CRLF rows", () => {
    expect(toCsv(["a", "b"], [[1, "x"]])).toBe("\uFEFFa,b\r\n1,x\r\n");
  });
});
