import { randomBytes } from "node:crypto";
import type { SQSEvent } from "aws-lambda";
import type { InboundEvent, WaMessage } from "@atende/shared/contracts/queue-messages";
import { consumeInbound } from "../app/inbound-consumer";
import type { Tenant } from "./factories";
import type { TestApp } from "./test-app";
import { newTicketFields, type TicketRecord } from "../features/inbox/tickets/tickets.repository";

/** Test data for the inbox: inbound events as the session host sends them, delivered through the real consumer. */
export const waId = () => `3A${randomBytes(8).toString("hex").toUpperCase()}`;

export const customerMessage = (
  tenant: Tenant,
  opts: { number?: string; body?: string; id?: string; fromMe?: boolean; lid?: string; chatJid?: string; pushName?: string; extra?: Partial<WaMessage> } = {},
): InboundEvent => {
  const number = opts.number ?? "5511987654321";
  const id = opts.id ?? waId();
  return {
    type: "message",
    eventId: id,
    companyId: tenant.company.id,
    whatsappId: tenant.whatsapp.id,
    message: {
      id,
      chatJid: opts.chatJid ?? `${number}@s.whatsapp.net`,
      fromMe: opts.fromMe ?? false,
      isGroup: false,
      sender: { jid: opts.chatJid ?? `${number}@s.whatsapp.net`, number, pushName: opts.pushName ?? "Cliente Teste", ...(opts.lid ? { lid: opts.lid } : {}) },
      type: "chat",
      body: opts.body ?? "Olá",
      isForwarded: false,
      timestamp: Math.floor(Date.now() / 1000),
      ...opts.extra,
    },
  };
};

export const sqsEvent = (events: InboundEvent[]): SQSEvent => ({
  Records: events.map((e, i) => ({
    messageId: `m-${i}-${randomBytes(4).toString("hex")}`,
    receiptHandle: "r",
    body: JSON.stringify(e),
    attributes: { MessageGroupId: `${e.whatsappId}:${"message" in e ? e.message.chatJid : i}` } as never,
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn",
    awsRegion: "us-east-1",
  })),
});

export const deliver = async (t: TestApp, ...events: InboundEvent[]) => {
  const out = await consumeInbound(t.container, sqsEvent(events));
  if (out.batchItemFailures.length) throw new Error(`inbound failures: ${JSON.stringify(out.batchItemFailures)}`);
};

/** Tickets of a tenant as the admin sees them (all statuses). */
export const adminTickets = async (t: TestApp, tenant: Tenant, query = "showAll=true") => {
  const res = await t.call("GET", `/tickets?${query}`, { token: tenant.adminToken });
  if (res.status !== 200) throw new Error(`GET /tickets ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.tickets as { id: number; status: string; queueId: number | null; userId: number | null; unreadMessages: number; contact: { id: number; number: string; name: string; profilePicUrl?: string }; lastMessage: string }[];
};

/**
 * A closed ticket's record as a repository writes it (for tests that write items directly: a seeded history, an item
 * from before a field existed). `id` also makes its uuid; `at` is every date of its one cycle.
 */
export const closedTicketRecord = (
  tenant: Tenant,
  r: { id: number; contactId: number; at: string; lastMessage: string } & Partial<TicketRecord>,
): TicketRecord => {
  const { id, contactId, at, lastMessage, ...rest } = r;
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
    companyId: tenant.company.id,
    status: "closed",
    userId: tenant.user.id,
    queueId: tenant.queues[0]!.id,
    whatsappId: tenant.whatsapp.id,
    contactId,
    chatJid: "x@s.whatsapp.net",
    isGroup: false,
    ...newTicketFields(at),
    lastMessage,
    lastMessageLc: lastMessage.toLowerCase(),
    cycle: { queuedAt: at, acceptedAt: at, finishedAt: at, ratedAt: null, rating: null },
    version: 1,
    ...rest,
  };
};
