import { deflateSync } from "node:zlib";

/**
 * Small real media files the bot stand-ins serve (local only): a PNG card, a WAV of silence and an MP4 header, so
 * the runner downloads, sniffs and stores them like any bot's media.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

/** A size×size RGB PNG: a coloured card with a lighter band (enough to see it is the bot's picture). */
export const pngCard = (size: number, rgb: [number, number, number]) => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    const band = y > size * 0.4 && y < size * 0.6;
    for (let x = 0; x < size; x++) {
      const [r, g, b] = band ? rgb.map((v) => Math.min(255, v + 90)) : rgb;
      row[1 + x * 3] = r!;
      row[2 + x * 3] = g!;
      row[3 + x * 3] = b!;
    }
    rows.push(row);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
};

/** A mono 8 kHz 8-bit WAV of silence. */
export const wavSilence = (ms: number) => {
  const samples = Math.round((8000 * ms) / 1000);
  const b = Buffer.alloc(44 + samples, 0x80);
  b.write("RIFF", 0, "ascii");
  b.writeUInt32LE(36 + samples, 4);
  b.write("WAVEfmt ", 8, "ascii");
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write("data", 36, "ascii");
  b.writeUInt32LE(samples, 40);
  return b;
};

/** An ISO media file with only its `ftyp` and an empty `mdat` box (typed as MP4 video; players show nothing). */
export const mp4Stub = () => {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "ascii");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "ascii");
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8, 0);
  mdat.write("mdat", 4, "ascii");
  return Buffer.concat([ftyp, mdat]);
};

/** Escapes text for the stand-ins' small HTML pages. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
