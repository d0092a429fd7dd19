import { sniffMedia, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import { MAX_MESSAGE_MEDIA_BYTES } from "@atende/shared/constants/business";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Logger } from "../../../platform/logger";
import type { SecretBox } from "../../../platform/secrets/secret-box.port";
import { mediaKeyFor, type MediaStore } from "../../../platform/storage/media-store.port";
import type { SendApiClient } from "../../../platform/channels/meta/send-api.client";
import type { MetaRecord, MetaRepository } from "./meta.repository";

const isMetaJid = (jid: string) => /@(messenger|instagram)$/.test(jid);

/**
 * The consumer's step for Messenger / Instagram events before the inbox handles them (docs/adr/0090): the chat's
 * messaging window restarts at the customer's message time; the customer's name comes from the profile lookup
 * (cached per instance); attachment URLs are downloaded through the outbound guard into our storage, the type
 * decided by the bytes (ADR 0008). Other events pass untouched without a read.
 */
export const createMetaInbound = (deps: {
  repo: MetaRepository;
  secrets: SecretBox;
  media: MediaStore;
  client: (rec: MetaRecord, token: string) => SendApiClient;
  logger: Logger;
  maxBytes?: number;
}) => {
  const names = new Map<string, string | null>();
  const needs = (e: InboundEvent) => e.type === "message" && !e.message.fromMe && isMetaJid(e.message.chatJid);
  return {
    needs,
    async prepare(event: InboundEvent): Promise<InboundEvent> {
      if (event.type !== "message" || !needs(event)) return event;
      const m = event.message;
      await deps.repo.touchWindow(event.companyId, event.whatsappId, m.chatJid, new Date(m.timestamp * 1000).toISOString());
      const rec = await deps.repo.get(event.companyId, event.whatsappId);
      if (!rec) return event;
      const client = deps.client(rec, await deps.secrets.open(rec.pageAccessToken));
      const nameKey = `${event.companyId}:${m.chatJid}`;
      if (!names.has(nameKey)) {
        if (names.size > 5_000) names.clear();
        const p = await client.profile(rec.provider, m.chatJid.split("@")[0]!);
        names.set(nameKey, p.name ?? p.username ?? null);
      }
      const pushName = names.get(nameKey);
      let message = pushName ? { ...m, sender: { ...m.sender, pushName } } : m;
      const remote = message.remoteMedia;
      if (remote?.provider === "meta" && remote.url) {
        const { remoteMedia: _drop, ...rest } = message;
        const limit = deps.maxBytes ?? MAX_MESSAGE_MEDIA_BYTES;
        const got = await client.download(remote.url, limit);
        if ("tooLarge" in got) {
          deps.logger.warn("meta: attachment over the limit not stored", { companyId: event.companyId, size: got.tooLarge });
          message = { ...rest, mediaRefused: { reason: "tooLarge", size: got.tooLarge, limit } };
        } else {
          const sniffed = withDeclaredAv(sniffMedia(got.bytes, remote.filename), got.mimeType || remote.mimetype);
          const filename = remote.filename ?? `${rest.type}-${rest.id.replace(/[^\w-]/g, "").slice(-24)}.${sniffed.ext}`;
          const key = mediaKeyFor(event.companyId, rest.id, filename);
          await deps.media.put(key, got.bytes, sniffed.mime);
          message = { ...rest, media: { key, mimetype: sniffed.mime, filename, size: got.bytes.byteLength } };
        }
      }
      return { ...event, message };
    },
  };
};
export type MetaInbound = ReturnType<typeof createMetaInbound>;
