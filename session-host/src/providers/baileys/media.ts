import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { WAMessage } from "baileys";
import { isOggOpus } from "@atende/shared/domain/messages/message";
import { byteCounter } from "../../media/media-stream";
import { MediaTooLargeError, ProviderError, type OutgoingMessage } from "../provider.port";
import { unwrap } from "./message-mapper";
import type { Baileys, Socket } from "./support";

/** Reads at most `limit` bytes of a stream; past it, stops the download and fails with MediaTooLargeError. */
export const readCapped = async (source: Readable, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  await pipeline(
    source,
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (total > limit) return done(new MediaTooLargeError(limit, total));
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
};

/**
 * Inbound media as Baileys decrypts it, as a stream capped at the limit (fails with MediaTooLargeError past
 * it); refused at once when WhatsApp declares it too large.
 */
export const mediaStreamer = (b: Baileys, s: Socket, mediaMax: number, logger: unknown) => async (m: WAMessage): Promise<Readable> => {
  const content = unwrap(m.message);
  const media = content?.imageMessage ?? content?.videoMessage ?? content?.audioMessage ?? content?.documentMessage ?? content?.stickerMessage ?? content?.ptvMessage;
  const length = media?.fileLength as unknown;
  // protobuf uint64: a number, or a Long once decoded from the wire
  const declared = typeof length === "object" && length && "toNumber" in length ? (length as { toNumber(): number }).toNumber() : Number(length ?? 0);
  if (declared > mediaMax) throw new MediaTooLargeError(mediaMax, declared);
  const stream = await b.downloadMediaMessage(m, "stream", {}, { logger: logger as never, reuploadRequest: s.updateMediaMessage });
  const capped = byteCounter(mediaMax, (total) => new MediaTooLargeError(mediaMax, total));
  stream.on("error", (err) => capped.destroy(err));
  capped.on("close", () => stream.destroy()); // cut off at the cap: the download stops too
  return stream.pipe(capped);
};

/** The same, read into memory (providers' `download`; the host prefers the stream). */
export const downloader = (b: Baileys, s: Socket, mediaMax: number, logger: unknown) => {
  const streamOf = mediaStreamer(b, s, mediaMax, logger);
  return async (m: WAMessage) => readCapped(await streamOf(m), mediaMax);
};

/** What Baileys' sendMessage gets for one of our outgoing messages (media checked against the limit first). */
export const outboundContent = async (m: OutgoingMessage, mediaMax: number) => {
  const contextInfo = m.isForwarded ? { isForwarded: true, forwardingScore: 1 } : undefined;
  if (!m.media) return { text: m.body, contextInfo };
  const size = m.media.byteSize ? await m.media.byteSize() : m.media.size;
  if (size !== undefined && size > mediaMax) throw new ProviderError("ERR_WAPP_MEDIA_TOO_LARGE");
  // a stream: Baileys encrypts it to a temporary file, never holding the media whole
  const upload = m.media.stream ? { stream: await m.media.stream() } : await m.media.read();
  if (Buffer.isBuffer(upload) && upload.length > mediaMax) throw new ProviderError("ERR_WAPP_MEDIA_TOO_LARGE");
  const caption = m.body || undefined;
  switch (m.media.kind) {
    case "image":
      return { image: upload, caption, mimetype: m.media.mimetype, contextInfo };
    case "video":
      return { video: upload, caption, mimetype: m.media.mimetype, contextInfo };
    case "audio": {
      // a voice note only when it really is Opus in Ogg (ADR 0015); anything else goes as plain audio, as it is
      const voice = Boolean(m.media.ptt) && isOggOpus(m.media.mimetype);
      return { audio: upload, mimetype: voice ? "audio/ogg; codecs=opus" : m.media.mimetype, ptt: voice, contextInfo };
    }
    case "sticker":
      return { sticker: upload, contextInfo };
    case "document":
      return { document: upload, mimetype: m.media.mimetype, fileName: m.media.filename ?? "arquivo", caption, contextInfo };
  }
};
