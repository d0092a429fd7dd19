import { randomUUID } from "node:crypto";
import { type InboundEvent, type OutboundCommand, PHONE_CONTACTS_PER_EVENT } from "@atende/shared/contracts/queue-messages";
import type { MediaStore } from "../media/media-store.port";
import type { ProviderSession } from "../providers/provider.port";

/** A phone book is read up to this many entries (the rest is left out, as a sheet import's rows are). */
const MAX_PHONE_CONTACTS = 20_000;

type ChatCommand = Exclude<OutboundCommand, { type: `session.${string}` }>;

/**
 * Runs one chat command on a connected session and returns the event that reports its outcome
 * (command.result, number.checked for a number check and one per number for checkNumbers, contacts.listed parts
 * for a contact list). Provider errors
 * propagate to the caller.
 */
export const executeCommand = async (session: ProviderSession, cmd: ChatCommand, media: MediaStore): Promise<InboundEvent | InboundEvent[]> => {
  const base = { companyId: cmd.companyId, whatsappId: cmd.whatsappId };
  const ok = (messageId?: string): InboundEvent => ({ ...base, eventId: `result:${cmd.commandId}`, type: "command.result", commandId: cmd.commandId, ok: true, messageId });
  switch (cmd.type) {
    case "send": {
      const ref = cmd.media;
      const res = await session.send({
        messageId: cmd.messageId,
        chatJid: cmd.chatJid,
        body: cmd.body,
        quotedId: cmd.quotedId,
        isForwarded: cmd.isForwarded,
        media: ref
          ? {
              ...ref,
              read: () => media.get(ref.key),
              byteSize: async () => ref.size ?? (media.size ? await media.size(ref.key) : (await media.get(ref.key)).length),
              stream: media.stream ? () => media.stream!(ref.key) : undefined,
            }
          : undefined,
      });
      return ok(res.messageId);
    }
    case "edit":
      await session.edit(cmd.chatJid, cmd.targetId, cmd.body);
      return ok(cmd.targetId);
    case "delete":
      await session.delete(cmd.chatJid, cmd.targetId);
      return ok(cmd.targetId);
    case "react":
      await session.react(cmd.chatJid, cmd.targetId, cmd.emoji);
      return ok(cmd.targetId);
    case "read":
      await session.markRead(cmd.chatJid, cmd.messageIds);
      return ok();
    case "presence":
      await session.sendPresence(cmd.chatJid, cmd.presence);
      return ok();
    case "rejectCall":
      await session.rejectCall(cmd.callId, cmd.from);
      return ok();
    case "checkNumber": {
      const res = await session.checkNumber(cmd.number);
      return { ...base, eventId: `checked:${cmd.requestId || randomUUID()}`, type: "number.checked", requestId: cmd.requestId, number: cmd.number, exists: res.exists, jid: res.jid };
    }
    case "listContacts": {
      const all = (await session.listContacts()).slice(0, MAX_PHONE_CONTACTS);
      const parts: InboundEvent[] = [];
      for (let i = 0, part = 0; i === 0 || i < all.length; i += PHONE_CONTACTS_PER_EVENT, part++)
        parts.push({
          ...base,
          eventId: `contacts:${cmd.requestId}:${part}`,
          type: "contacts.listed",
          requestId: cmd.requestId,
          part,
          last: i + PHONE_CONTACTS_PER_EVENT >= all.length,
          contacts: all.slice(i, i + PHONE_CONTACTS_PER_EVENT),
        });
      return parts;
    }
    case "checkNumbers": {
      const answers = await session.checkNumbers(cmd.checks.map((c) => c.number));
      return cmd.checks.map((c, i): InboundEvent => {
        const a = answers[i];
        return { ...base, eventId: `checked:${c.requestId || randomUUID()}`, type: "number.checked", requestId: c.requestId, number: c.number, exists: Boolean(a?.exists), jid: a?.jid };
      });
    }
  }
};

export const failureEvent = (cmd: OutboundCommand, error: string): InboundEvent | InboundEvent[] =>
  cmd.type === "checkNumbers"
    ? cmd.checks.map((c): InboundEvent => ({ companyId: cmd.companyId, whatsappId: cmd.whatsappId, eventId: `checked:${c.requestId}`, type: "number.checked", requestId: c.requestId, number: c.number, exists: false }))
    : cmd.type === "listContacts"
    ? { companyId: cmd.companyId, whatsappId: cmd.whatsappId, eventId: `contacts:${cmd.requestId}:failed`, type: "contacts.listed", requestId: cmd.requestId, part: 0, last: true, contacts: [], error }
    : cmd.type === "checkNumber"
    ? { companyId: cmd.companyId, whatsappId: cmd.whatsappId, eventId: `checked:${cmd.requestId}`, type: "number.checked", requestId: cmd.requestId, number: cmd.number, exists: false }
    : { companyId: cmd.companyId, whatsappId: cmd.whatsappId, eventId: `result:${cmd.commandId}`, type: "command.result", commandId: cmd.commandId, ok: false, error };

/** tries of one command on this host (errors that are not the provider's verdict) before it is reported failed */
export const MAX_TRANSIENT_ATTEMPTS = 3;
/** commands with a transient failure remembered at once (oldest forgotten first) */
const MAX_REMEMBERED_ATTEMPTS = 10_000;

/**
 * Transient failures per command on this host. Counted here, not by the queue's receive count: hand-backs
 * between hosts count as receives too and must not use up a command's tries.
 */
export const createAttemptCounter = () => {
  const attempts = new Map<string, number>();
  return {
    failed(commandId: string) {
      const n = (attempts.get(commandId) ?? 0) + 1;
      attempts.delete(commandId);
      attempts.set(commandId, n);
      if (attempts.size > MAX_REMEMBERED_ATTEMPTS) attempts.delete(attempts.keys().next().value as string);
      return n;
    },
    delete: (commandId: string) => attempts.delete(commandId),
  };
};
