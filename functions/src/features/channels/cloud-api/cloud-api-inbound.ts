import { sniffMedia, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Logger } from "../../../platform/logger";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import { mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import type { GraphApiClient } from "../../../platform/channels/cloud-api/graph-api.client";
import { translateIds } from "../../../platform/channels/cloud-api/webhook.mapper";
import type { CloudApiRepository } from "./cloud-api.repository";

const isWamid = (id: string | undefined) => Boolean(id?.startsWith("wamid."));
const EXT: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "audio/ogg": "ogg", "audio/mpeg": "mp3", "audio/aac": "aac", "audio/mp4": "m4a", "video/mp4": "mp4", "video/3gpp": "3gp", "application/pdf": "pdf" };

/**
 * The consumer's step for events that came through a Cloud API webhook, before the inbox handles them:
 * wamids of our own messages become our ids (statuses, reactions, quotes), and media is downloaded (media id →
 * URL → bytes, with the connection's token) into our storage, so the message is stored with a media key like a QR
 * message. Events without wamids or remote media (every QR event) pass untouched, without a read.
 */
export const createCloudApiInbound = (deps: {
  repo: CloudApiRepository;
  secrets: SecretBox;
  media: MediaStore;
  graph: (opts: { baseUrl: string; accessToken: string }) => GraphApiClient;
  logger: Logger;
  maxBytes?: number;
}) => {
  // a Messenger / Instagram attachment ("meta": a URL) is the Meta step's (meta-inbound.ts), never this one's
  const needs = (e: InboundEvent) =>
    (e.type === "message" && (e.message.remoteMedia?.provider === "cloudapi" || isWamid(e.message.quotedId) || isWamid(e.message.reaction?.targetId))) ||
    (e.type === "message.update" && isWamid(e.messageId)) ||
    (e.type === "command.result" && isWamid(e.messageId ?? e.commandId));
  return {
    needs,
    async prepare(event: InboundEvent): Promise<InboundEvent> {
      // the customer wrote: the 24-hour window restarts at the message's own time (Cloud API messages have remoteMedia or a wamid id)
      if (event.type === "message" && !event.message.fromMe && isWamid(event.message.id)) {
        await deps.repo.touchWindow(event.companyId, event.whatsappId, event.message.chatJid, new Date(event.message.timestamp * 1000).toISOString());
      }
      if (!needs(event)) return event;
      const e = await translateIds(event, (wamid) => deps.repo.ids.ourIdOf(event.companyId, wamid));
      if (e.type !== "message" || e.message.remoteMedia?.provider !== "cloudapi") return e;
      const { remoteMedia, ...message } = e.message;
      const rec = await deps.repo.get(e.companyId, e.whatsappId);
      if (!rec) throw new Error("cloud-api: media for a connection without settings");
      const graph = deps.graph({ baseUrl: rec.graphApiUrl, accessToken: await deps.secrets.open(rec.accessToken) });
      const limit = deps.maxBytes ?? MAX_MESSAGE_MEDIA_BYTES;
      const got = await graph.downloadMedia(remoteMedia.id, limit);
      if ("tooLarge" in got) {
        deps.logger.warn("cloud-api: media over the limit not stored", { companyId: e.companyId, size: got.tooLarge });
        return { ...e, message: { ...message, mediaRefused: { reason: "tooLarge", size: got.tooLarge, limit } } };
      }
      // the customer's declared type is never trusted: the bytes decide (shared media sniffer, ADR 0008)
      const sniffed = withDeclaredAv(sniffMedia(got.bytes, remoteMedia.filename), remoteMedia.mimetype || got.mimeType);
      const mimetype = sniffed.mime;
      const filename = remoteMedia.filename ?? `${message.type}-${remoteMedia.id}.${EXT[mimetype] ?? sniffed.ext}`;
      const key = mediaKeyFor(e.companyId, message.id, filename);
      await deps.media.put(key, got.bytes, mimetype);
      return { ...e, message: { ...message, media: { key, mimetype, filename, size: got.bytes.byteLength } } };
    },
  };
};
export type CloudApiInbound = ReturnType<typeof createCloudApiInbound>;
