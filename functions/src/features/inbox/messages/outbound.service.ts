import { newMessageId } from "../message-ids";
import type { MediaRef, OutboundCommand } from "@atende/shared/contracts/queue-messages";
import type { MediaType, Message } from "@atende/shared/domain/messages/message";
import type { Contact } from "@atende/shared/domain/contacts/contact";
import type { Logger } from "../../../platform/logger";
import type { ChannelCommand, Channels } from "../../../platform/channels/channel.port";
import type { Directory } from "../tickets/inbox-directory";
import type { InboxEvents } from "../tickets/inbox-events";
import { ExtraConditionFailed, type TicketChanges } from "../tickets/ticket-changes";
import type { TicketLifecycle } from "../tickets/ticket-lifecycle";
import type { TicketRecord } from "../tickets/tickets.repository";
import type { MessagesRepository } from "./messages.repository";


export type OutboundMedia = MediaRef & { kind: "image" | "audio" | "video" | "document" | "sticker"; ptt?: boolean };

const mediaTypeOf = (media?: OutboundMedia): MediaType => {
  if (!media) return "chat";
  return media.kind === "document" ? "application" : media.kind;
};

export const previewOf = (m: Pick<Message, "body" | "mediaType" | "mediaName">) => {
  if (m.body) return m.body.slice(0, 255);
  return m.mediaName ?? m.mediaType;
};

/**
 * Sending a message (attendant, bot, forward): stored first with ack 0 together with the ticket's last message
 * (one transaction; a second store of the same id is refused, so a retry never sends twice), then the `send`
 * command. A command that cannot be queued marks the message failed with the reason.
 */
export const createOutboundService = (deps: {
  messages: MessagesRepository;
  changes: TicketChanges;
  channels: Channels;
  events: InboxEvents;
  lifecycle: Pick<TicketLifecycle, "afterOurMessage">;
  clock: () => Date;
  logger: Logger;
}) => {
  const { messages, changes, channels, events, lifecycle, clock, logger } = deps;

  /** every conversation command goes out through the connection's channel (docs/adr/0020-channel-port.md) */
  const command = async (cmd: ChannelCommand) => {
    await channels.forConnection({ whatsappId: cmd.whatsappId }).dispatch(cmd);
  };

  return {
    command,
    async send(
      ticket: TicketRecord,
      input: {
        body: string;
        media?: OutboundMedia;
        quotedId?: string | null;
        isForwarded?: boolean;
        userId: number | null;
        id?: string;
        /** Cloud API: an approved template (body holds its rendered text) */
        template?: { name: string; language: string; components: Record<string, unknown>[] };
        /** a campaign message (paced per recipient on the Cloud API) */
        bulk?: boolean;
        /** issue 30: a flow's menu as Cloud API buttons or list (body holds it as numbered text for other channels) */
        interactive?: Extract<OutboundCommand, { type: "send" }>["interactive"];
        /** a bot turn's order (ADR 0106): the message that must go first, and whether a later one waits for this one */
        after?: string;
        followed?: boolean;
        /** written by an attendant (not a bot, not an automatic message): the cycle's first response when it has none */
        attendant?: boolean;
        /**
         * More of the ticket written in the message's own transaction (automation: its bot state, docs/adr/0061),
         * from the ticket as stored (a retry after a conflict asks again). Never a move (status, owner, queue,
         * connection): the message's frames go to the ticket's viewers as it was.
         */
        ticketPatch?: (current: TicketRecord) => Partial<TicketRecord>;
        /** an automatic message repeating the ticket's previous one word for word: not indexed (Message.isRepeat) */
        repeat?: boolean;
        /**
         * Sent only while the ticket as written (not as the caller read it) passes this (a bot: nobody accepted it
         * meanwhile); otherwise nothing is stored or sent and the answer says `skipped`.
         */
        onlyIf?: (current: TicketRecord) => boolean;
      },
      ctx: {
        dir?: Directory;
        /** the ticket's contact as the caller holds it (the realtime events then do not read it again) */
        contact?: Contact | null;
        /** `ticket` is as stored now (the caller just wrote or read it): the first attempt does not read it again */
        current?: boolean;
      },
    ): Promise<{ message: Message; ticket: TicketRecord; duplicate: boolean; skipped?: true }> {
      const now = clock();
      const id = input.id ?? newMessageId();
      const at = now.toISOString();
      const message: Message = {
        id,
        companyId: ticket.companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        body: input.body,
        fromMe: true,
        mediaType: mediaTypeOf(input.media),
        mediaUrl: null,
        mediaKey: input.media?.key ?? null,
        mediaMimetype: input.media?.mimetype ?? null,
        mediaName: input.media?.filename ?? null,
        quotedMsgId: input.quotedId ?? null,
        isDeleted: false,
        isEdited: false,
        isForwarded: input.isForwarded ?? false,
        ack: 0,
        error: null,
        reactions: [],
        participant: null,
        queueId: ticket.queueId,
        userId: input.userId,
        createdAt: at,
        updatedAt: at,
        ...(input.repeat ? { isRepeat: true } : {}),
      };
      let saved: TicketRecord;
      const patchOf = (cur: TicketRecord) => {
        const more = input.ticketPatch?.(cur) ?? {};
        for (const k of ["status", "userId", "queueId", "whatsappId"] as const) {
          if (k in more && more[k] !== cur[k]) throw new Error(`outbound: the message's own ticket write may not move the ticket (${k})`);
        }
        return more;
      };
      try {
        const out = await changes.mutate(
          ticket.companyId,
          ticket.id,
          (cur) => input.onlyIf && !input.onlyIf(cur) ? null : ({
            patch: {
              lastMessage: previewOf(message),
              lastMessageLc: previewOf(message).toLowerCase(),
              lastMessageAt: at,
              lastFromMe: true,
              ...(input.attendant ? { cycle: { ...cur.cycle, firstResponseAt: cur.cycle.firstResponseAt ?? at, lastResponseAt: at } } : {}),
              ...patchOf(cur),
            },
            extra: [messages.createItem(message)],
          }),
          { byUserId: input.userId, now, ...(ctx.current ? { read: ticket } : {}) },
        );
        if (!out) return { message, ticket, duplicate: false, skipped: true };
        saved = out.after;
      } catch (e) {
        if (e instanceof ExtraConditionFailed) {
          const existing = await messages.findById(ticket.companyId, id);
          if (existing) return { message: existing, ticket, duplicate: true };
        }
        throw e;
      }
      let stored = message;
      try {
        await command({
          type: "send",
          commandId: id,
          companyId: ticket.companyId,
          whatsappId: ticket.whatsappId ?? 0,
          messageId: id,
          chatJid: ticket.chatJid,
          body: input.body,
          ...(input.media ? { media: input.media } : {}),
          ...(input.quotedId ? { quotedId: input.quotedId } : {}),
          ...(input.isForwarded ? { isForwarded: true } : {}),
          ...(input.template ? { template: input.template } : {}),
          ...(input.bulk ? { bulk: true } : {}),
          ...(input.interactive ? { interactive: input.interactive } : {}),
          ...(input.after ? { after: input.after } : {}),
          ...(input.followed ? { followed: true } : {}),
        });
      } catch (err) {
        logger.warn("outbound: command not queued", { companyId: ticket.companyId, ticketId: ticket.id, err: String(err) });
        stored = (await messages.update(ticket.companyId, id, { error: "ERR_SENDING_WAPP_MSG", updatedAt: clock().toISOString() })) ?? { ...message, error: "ERR_SENDING_WAPP_MSG" };
      }
      await lifecycle.afterOurMessage(saved, saved.whatsappId !== null ? ctx.dir?.whatsapps.get(saved.whatsappId) : undefined, now);
      const given = ctx.contact !== undefined && ctx.contact?.id === saved.contactId ? ctx.contact : undefined;
      // the contact read (when not given) once for both events
      const contact = await events.message("create", stored, saved, ctx.dir, given);
      await events.ticketUpdated(saved, null, ctx.dir, contact);
      return { message: stored, ticket: saved, duplicate: false };
    },
  };
};
export type OutboundService = ReturnType<typeof createOutboundService>;
