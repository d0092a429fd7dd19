/**
 * Builds a Pix "copia e cola" code: an EMV QR payload (BR Code) with the merchant account, amount, txid and the
 * CRC16-CCITT checksum, as BACEN's manual describes. Any Pix reader parses it; no bank accepts the fake key.
 */
const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;

export const crc16 = (payload: string): string => {
  let crc = 0xffff;
  for (const ch of Buffer.from(payload, "utf8")) {
    crc ^= ch << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
};

const ascii = (text: string, max: number) =>
  text
    .normalize("NFD")
    .replace(/[^\x20-\x7e]/g, "")
    .slice(0, max);

export const pixCopyPaste = (input: { key: string; amount: string; merchantName: string; merchantCity: string; txid: string }): string => {
  const account = field("00", "br.gov.bcb.pix") + field("01", input.key);
  const body =
    field("00", "01") +
    field("26", account) +
    field("52", "0000") +
    field("53", "986") +
    field("54", input.amount) +
    field("58", "BR") +
    field("59", ascii(input.merchantName, 25)) +
    field("60", ascii(input.merchantCity, 15)) +
    field("62", field("05", input.txid.slice(0, 25))) +
    "6304";
  return body + crc16(body);
};
