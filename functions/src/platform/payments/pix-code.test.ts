import { describe, expect, it } from "vitest";
import { crc16, pixCopyPaste } from "./pix-code";

describe("Pix copy-paste code", () => {
  it("uses CRC16-CCITT (0x1021, start 0xFFFF) as BR Code requires", () => {
    expect(crc16("123456789")).toBe("29B1");
  });

  it("carries the Pix key, the amount and the txid, and ends with its own checksum", () => {
    const code = pixCopyPaste({ key: "chave@banco.br", amount: "149.90", merchantName: "Atende Soluções", merchantCity: "São Paulo", txid: "AT0000000001" });
    expect(code.startsWith("000201")).toBe(true);
    expect(code).toContain("0014br.gov.bcb.pix0114chave@banco.br");
    expect(code).toContain("5406149.90");
    expect(code).toContain("5915Atende Solucoes");
    expect(code).toContain("0512AT0000000001");
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
  });
});
