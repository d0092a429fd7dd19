/** Sample attachments a simulated customer sends when the caller gives no file of its own. */
export type MessageType = "image" | "audio" | "video" | "document" | "sticker";

// A 2x2 red PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);
// A 1x1 lossless WebP.
const WEBP = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");

/** A valid WAV file with `ms` milliseconds of silence (8 kHz, 8-bit mono). */
const silentWav = (ms: number) => {
  const samples = Math.round((8000 * ms) / 1000);
  const b = Buffer.alloc(44 + samples, 128);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + samples, 4);
  b.write("WAVEfmt ", 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write("data", 36);
  b.writeUInt32LE(samples, 40);
  return b;
};

const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Contents 4 0 R/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>endobj\n4 0 obj<</Length ${text.length + 30}>>stream\nBT /F1 12 Tf 10 50 Td (${text.replace(/[()\\]/g, "")}) Tj ET\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );

export const sampleMedia = (type: MessageType, caption: string): { bytes: Buffer; mimetype: string; filename: string } => {
  switch (type) {
    case "image":
      return { bytes: PNG, mimetype: "image/png", filename: "foto.png" };
    case "sticker":
      return { bytes: WEBP, mimetype: "image/webp", filename: "figurinha.webp" };
    case "audio":
      return { bytes: silentWav(1500), mimetype: "audio/wav", filename: "audio.wav" };
    case "video":
      // Not a playable video: the simulator only needs distinct bytes with a video type.
      return { bytes: Buffer.from("simulated video"), mimetype: "video/mp4", filename: "video.mp4" };
    case "document":
      return { bytes: pdf(caption || "Documento de teste"), mimetype: "application/pdf", filename: "documento.pdf" };
  }
};
