/**
 * What a file really is, from its first bytes (never from what the sender declared). Used by the API for every
 * upload, by the session host for media a customer sends, by the media route when serving, and by the browser
 * before it shows anything. No I/O: runs in Node and in the browser.
 *
 * Kinds:
 * - image / audio / video: formats a browser renders without running anything (raster images, common codecs);
 * - document: files people exchange that a browser does not run (PDF, Office, zip, plain text, CSV);
 * - active: markup a browser would run scripts in when opened (SVG, HTML, XML);
 * - executable: programs (Windows PE, ELF, Mach-O, shebang scripts);
 * - empty: zero bytes; unknown: anything else.
 */
export type SniffedKind = "image" | "audio" | "video" | "document" | "active" | "executable" | "empty" | "unknown";
export type Sniffed = { mime: string; kind: SniffedKind; ext: string };

/** Types a browser may show inline (`<img>`, `<audio>`, `<video>`) straight from our origin. Everything else is an attachment. */
export const INLINE_SAFE_TYPES: readonly string[] = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/bmp",
  "audio/ogg",
  "audio/mpeg",
  "audio/wav",
  "audio/mp4",
  "audio/aac",
  "audio/amr",
  "audio/webm",
  "video/mp4",
  "video/webm",
  "video/3gpp",
  "video/quicktime",
];
export const isInlineSafe = (mime: string) => INLINE_SAFE_TYPES.includes(mime.split(";")[0]!.trim().toLowerCase());

const at = (b: Uint8Array, offset: number, ...sig: number[]) => sig.every((v, i) => b[offset + i] === v);
const ascii = (b: Uint8Array, offset: number, text: string) => at(b, offset, ...Array.from(text, (ch) => ch.charCodeAt(0)));
const extOf = (name?: string) => (name?.toLowerCase().match(/\.([a-z0-9]{1,8})$/)?.[1] ?? "");

const OOXML: Record<string, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
};
const OLE: Record<string, string> = { doc: "application/msword", xls: "application/vnd.ms-excel", ppt: "application/vnd.ms-powerpoint" };
const TEXT: Record<string, string> = { csv: "text/csv", txt: "text/plain", vcf: "text/vcard", json: "application/json", md: "text/markdown" };

/** ISO base media (MP4, M4A, MOV, 3GP): `ftyp` at offset 4, the brand after it. */
const isoMedia = (b: Uint8Array): Sniffed | null => {
  if (!ascii(b, 4, "ftyp")) return null;
  const brand = String.fromCharCode(...b.slice(8, 12));
  if (/^M4[AB] /.test(brand) || brand === "F4A ") return { mime: "audio/mp4", kind: "audio", ext: "m4a" };
  if (brand.startsWith("3g")) return { mime: "video/3gpp", kind: "video", ext: "3gp" };
  if (brand === "qt  ") return { mime: "video/quicktime", kind: "video", ext: "mov" };
  // HEIC/AVIF photos: exchanged as files (not every browser shows them), so documents
  if (/^(heic|heix|mif1|msf1)$/.test(brand)) return { mime: "image/heic", kind: "document", ext: "heic" };
  if (brand === "avif" || brand === "avis") return { mime: "image/avif", kind: "document", ext: "avif" };
  return { mime: "video/mp4", kind: "video", ext: "mp4" };
};

/** Valid UTF-8 (or plain ASCII / Latin-1 text) without control bytes other than tab, CR, LF, FF. */
const looksLikeText = (b: Uint8Array) => {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0 || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27)) return false;
  }
  return true;
};

const MARKUP = /<(svg|html|head|body|script|iframe|object|embed|frameset|meta|link|style|title|img|a|div|p|table|form|math)[\s/>]|<!doctype\s+html|<!--|<\?xml|<!entity|xmlns\s*[:=]/i;

/** The real type of `bytes`; `filename` only tells containers apart (a zip that is a .docx), never makes a file inline. */
export const sniffMedia = (bytes: Uint8Array, filename?: string): Sniffed => {
  const b = bytes;
  const ext = extOf(filename);
  if (b.length === 0) return { mime: "application/octet-stream", kind: "empty", ext: "bin" };

  if (at(b, 0, 0x89, 0x50, 0x4e, 0x47)) return { mime: "image/png", kind: "image", ext: "png" };
  if (at(b, 0, 0xff, 0xd8, 0xff)) return { mime: "image/jpeg", kind: "image", ext: "jpg" };
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return { mime: "image/gif", kind: "image", ext: "gif" };
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return { mime: "image/webp", kind: "image", ext: "webp" };
  if (ascii(b, 0, "BM") && b.length > 26 && at(b, 6, 0, 0, 0, 0)) return { mime: "image/bmp", kind: "image", ext: "bmp" };
  if (at(b, 0, 0, 0, 1, 0) && b.length > 6 && b[4]! > 0) return { mime: "image/x-icon", kind: "image", ext: "ico" };

  if (ascii(b, 0, "OggS")) return { mime: "audio/ogg", kind: "audio", ext: "ogg" };
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WAVE")) return { mime: "audio/wav", kind: "audio", ext: "wav" };
  if (ascii(b, 0, "ID3")) return { mime: "audio/mpeg", kind: "audio", ext: "mp3" };
  if (ascii(b, 0, "#!AMR")) return { mime: "audio/amr", kind: "audio", ext: "amr" };
  if (b[0] === 0xff && b.length > 1 && (b[1]! & 0xf6) === 0xf0) return { mime: "audio/aac", kind: "audio", ext: "aac" };
  if (b[0] === 0xff && b.length > 1 && (b[1]! & 0xe0) === 0xe0) return { mime: "audio/mpeg", kind: "audio", ext: "mp3" };
  const iso = isoMedia(b);
  if (iso) return iso;
  if (at(b, 0, 0x1a, 0x45, 0xdf, 0xa3)) return { mime: "video/webm", kind: "video", ext: "webm" };

  if (ascii(b, 0, "%PDF")) return { mime: "application/pdf", kind: "document", ext: "pdf" };
  if (ascii(b, 0, "PK") && (at(b, 2, 3, 4) || at(b, 2, 5, 6))) {
    return OOXML[ext] ? { mime: OOXML[ext], kind: "document", ext } : { mime: "application/zip", kind: "document", ext: "zip" };
  }
  if (at(b, 0, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    return OLE[ext] ? { mime: OLE[ext], kind: "document", ext } : { mime: "application/x-ole-storage", kind: "document", ext: "bin" };
  }
  if (ascii(b, 0, "{\\rtf")) return { mime: "application/rtf", kind: "document", ext: "rtf" };

  if (ascii(b, 0, "MZ")) return { mime: "application/x-msdownload", kind: "executable", ext: "exe" };
  if (at(b, 0, 0x7f, 0x45, 0x4c, 0x46)) return { mime: "application/x-executable", kind: "executable", ext: "bin" };
  if (at(b, 0, 0xfe, 0xed, 0xfa, 0xce) || at(b, 0, 0xfe, 0xed, 0xfa, 0xcf) || at(b, 0, 0xce, 0xfa, 0xed, 0xfe) || at(b, 0, 0xcf, 0xfa, 0xed, 0xfe) || at(b, 0, 0xca, 0xfe, 0xba, 0xbe))
    return { mime: "application/x-mach-binary", kind: "executable", ext: "bin" };
  if (ascii(b, 0, "#!")) return { mime: "text/x-shellscript", kind: "executable", ext: "sh" };

  // text: what it contains decides; anything that looks like markup is active whatever its name
  const head = b.subarray(0, 4096);
  const start = at(head, 0, 0xef, 0xbb, 0xbf) ? 3 : at(head, 0, 0xff, 0xfe) || at(head, 0, 0xfe, 0xff) ? 2 : 0;
  const utf16 = start === 2;
  const text = utf16 ? new TextDecoder(head[0] === 0xff ? "utf-16le" : "utf-16be").decode(head.subarray(2)) : new TextDecoder("utf-8").decode(head.subarray(start));
  if (!utf16 && !looksLikeText(head)) return { mime: "application/octet-stream", kind: "unknown", ext: "bin" };
  if (/<svg[\s>]/i.test(text)) return { mime: "image/svg+xml", kind: "active", ext: "svg" };
  if (/<!doctype\s+html|<html[\s>]/i.test(text)) return { mime: "text/html", kind: "active", ext: "html" };
  if (/^\s*<\?xml/i.test(text) || /^\s*<[a-z_][\w.:-]*[\s>/]/i.test(text)) return { mime: "application/xml", kind: "active", ext: "xml" };
  if (MARKUP.test(text)) return { mime: "text/html", kind: "active", ext: "html" };
  const plain = TEXT[ext];
  return plain ? { mime: `${plain}; charset=utf-8`, kind: "document", ext } : { mime: "text/plain; charset=utf-8", kind: "document", ext: "txt" };
};

/**
 * WebM and MP4 containers hold sound alone or pictures alike (a browser's voice recording is WebM): the declared
 * type may say which. Only ever between two inline-safe types, so the sender gains nothing by lying.
 */
export const withDeclaredAv = (s: Sniffed, declared: string | undefined): Sniffed => {
  const d = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  if (s.kind === "video" && d.startsWith("audio/") && (s.mime === "video/webm" || s.mime === "video/mp4"))
    return { mime: s.mime.replace("video/", "audio/"), kind: "audio", ext: s.ext === "mp4" ? "m4a" : s.ext };
  return s;
};

/** Where an upload goes, and what may go there (SERVER-RULES; spec 2 "logo", spec 3 "announcement image"). */
export type UploadDestination = "message" | "logo" | "announcement";

/**
 * The allow-lists per destination: logos PNG, ICO or SVG (spec 2); announcement images PNG or JPEG (spec 3);
 * everything sent to customers (messages, quick messages, queue and option media, campaigns, file lists, the external
 * API) images, audio, video and documents — markup (SVG, HTML, XML invoices) only as a document, never an image.
 * Executables, empty files and unknown binaries go nowhere.
 */
export const uploadRefusal = (s: Sniffed, destination: UploadDestination): "ERR_EMPTY_FILE" | "ERR_INVALID_MEDIA_TYPE" | null => {
  if (s.kind === "empty") return "ERR_EMPTY_FILE";
  if (destination === "logo") return ["image/png", "image/x-icon", "image/svg+xml"].includes(s.mime) ? null : "ERR_INVALID_MEDIA_TYPE";
  if (destination === "announcement") return s.mime === "image/png" || s.mime === "image/jpeg" ? null : "ERR_INVALID_MEDIA_TYPE";
  return s.kind === "image" || s.kind === "audio" || s.kind === "video" || s.kind === "document" || s.kind === "active" ? null : "ERR_INVALID_MEDIA_TYPE";
};

/** The message kind WhatsApp gets for a sniffed file: only inline-safe types are images, audio or video; the rest documents. */
export const messageKindOf = (s: Pick<Sniffed, "mime">): "image" | "sticker" | "audio" | "video" | "document" => {
  const mime = s.mime.split(";")[0]!.trim();
  if (!isInlineSafe(mime)) return "document";
  if (mime.startsWith("image/")) return mime === "image/webp" ? "sticker" : "image";
  if (mime.startsWith("audio/")) return "audio";
  return "video";
};

/** The policy on every media response: nothing in it may load, run, or be framed; opened directly it is sandboxed. */
export const MEDIA_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/**
 * The headers media is served with (API, public logos, the simulator): the type sniffed from the bytes, `nosniff`,
 * a sandboxing CSP; inline only for `INLINE_SAFE_TYPES` (plus `inlineAlso`, e.g. the operator's SVG logos), every
 * other file an attachment, and markup as `application/octet-stream` so no browser ever renders it.
 */
export const mediaResponseHeaders = (bytes: Uint8Array, filename: string, opts: { inlineAlso?: readonly string[] } = {}): Record<string, string> => {
  const s = sniffMedia(bytes, filename);
  const inline = isInlineSafe(s.mime) || (opts.inlineAlso ?? []).includes(s.mime);
  const type = inline || s.kind === "document" ? s.mime : "application/octet-stream";
  const base = (filename.split("/").pop() || "file").replace(/[\u0000-\u001f"\\]/g, "_");
  const name = base;
  const ascii = name.replace(/[^\x20-\x7e]/g, "_");
  return {
    "content-type": type,
    "x-content-type-options": "nosniff",
    "content-security-policy": MEDIA_CSP,
    "cross-origin-resource-policy": "same-origin",
    "content-disposition": `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
};
