import { Hono } from "hono";
import type { MessageView, WhisperEventData } from "@atende/shared/contracts/http/messages";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import { whisperSchema, type Message } from "@atende/shared/domain/messages/message";
import { can } from "@atende/shared/domain/permissions/permissions";
import { AppError } from "../../../platform/errors";
import type { AppEnv } from "../../../platform/http/app-env";
import { idParam, parseJson } from "../../../platform/http/parse";
import type { Guards } from "../../../platform/modules/feature-module";
import type { AuditRecorder } from "../../audit/audit.port";
import { auditEntry } from "../../audit/audit-diff";
import type { RealtimeService } from "../../realtime/realtime.service";
import { newMessageId } from "../message-ids";
import type { InboxEvents } from "../tickets/inbox-events";
import type { TicketsRepository } from "../tickets/tickets.repository";
import type { TicketsService } from "../tickets/tickets.service";
import { toMessageView } from "./message-view";
import type { MessagesRepository } from "./messages.repository";

/**
 * Where a whisper's push notice goes (the attendant's devices). The composition root wires the push feature here
 * (`container.push`) when it exists; absent, the attendant still gets the socket event and its sound.
 */
export type WhisperPush = (notice: { companyId: number; ticket: { id: number; uuid: string; queueId: number | null; userId: number }; from: string; body: string }) => Promise<void>;

/**
 * Whispers (issue 34, docs/adr/0102): a supervisor or admin writes to the ticket's attendant inside the conversation.
 * The message is stored like any other (internal: true) and shown to whoever sees the ticket, and nothing else
 * happens: no outbound command (no channel ever carries it), no ticket write (no last message, unread count,
 * status or order change for the attendant), an `appMessage` to the ticket's audience, a `whisper` event (and a push)
 * to its attendant, and an audit entry.
 */
export const createWhispers = (deps: {
  messages: Pick<MessagesRepository, "createItem">;
  tickets: Pick<TicketsRepository, "transact">;
  ticketsService: Pick<TicketsService, "findVisible">;
  events: Pick<InboxEvents, "message">;
  realtime: Pick<RealtimeService, "publish">;
  audit: AuditRecorder;
  clock: () => Date;
  push?: WhisperPush;
}) => ({
  async whisper(auth: AuthContext, ticketId: number, body: string): Promise<MessageView> {
    if (!can(auth.user.profile, "tickets:whisper")) throw new AppError("ERR_NO_PERMISSION");
    const t = await deps.ticketsService.findVisible(auth, ticketId);
    const at = deps.clock().toISOString();
    const m: Message = {
      id: `WSP${newMessageId()}`,
      companyId: t.companyId,
      ticketId: t.id,
      contactId: t.contactId,
      body,
      fromMe: true,
      mediaType: "chat",
      mediaUrl: null,
      mediaKey: null,
      mediaMimetype: null,
      mediaName: null,
      quotedMsgId: null,
      isDeleted: false,
      isEdited: false,
      isForwarded: false,
      ack: 0,
      error: null,
      reactions: [],
      participant: null,
      internal: true,
      queueId: t.queueId,
      userId: auth.user.id,
      createdAt: at,
      updatedAt: at,
    };
    await deps.tickets.transact([deps.messages.createItem(m)]);
    const view = toMessageView(m, null, null);
    await deps.events.message("create", m, t);
    const attendant = t.userId !== null && t.userId !== auth.user.id ? t.userId : null;
    if (attendant !== null) {
      const from = { id: auth.user.id, name: auth.user.name };
      await deps.realtime.publish<WhisperEventData>(t.companyId, "whisper", { action: "create", ticketId: t.id, message: view, from }, { kind: "users", userIds: [attendant] });
      await deps.push?.({ companyId: t.companyId, ticket: { id: t.id, uuid: t.uuid, queueId: t.queueId, userId: attendant }, from: from.name, body }).catch(() => undefined);
    }
    await deps.audit.record(auditEntry(auth, "whisper", { kind: "ticket", id: t.id }, { message: { from: null, to: m.id } }));
    return view;
  },
});
export type Whispers = ReturnType<typeof createWhispers>;

/** POST /tickets/{id}/whispers `{ body }` (≤ 4,096 characters): supervisors and admins (ERR_NO_PERMISSION otherwise). */
export const whisperRoutes = (whispers: Whispers, guards: Guards) => {
  const r = new Hono<AppEnv>();
  // the guard on the route itself: this app shares /tickets with the tickets' routes
  r.post("/:ticketId/whispers", guards.auth, async (c) => {
    const ticketId = idParam(c, "ticketId", "ERR_NO_TICKET_FOUND");
    const { body } = await parseJson(c, whisperSchema);
    return c.json(await whispers.whisper(c.get("auth"), ticketId, body), 201);
  });
  return r;
};
