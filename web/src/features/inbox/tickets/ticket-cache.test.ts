import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { TicketListResponse, TicketView } from "@atende/shared/contracts/http/tickets";
import { type TicketListParams, ticketKeys } from "./api/tickets-list";
import { applyTicketUpdate, patchTicket, removeTicketFromLists, ticketMatchesList } from "./ticket-cache";
import { aTicket } from "./testing/ticket-fixtures";

const seed = (qc: QueryClient, params: TicketListParams, tickets: TicketView[]) =>
  qc.setQueryData(ticketKeys.list(params), { pages: [{ tickets, count: tickets.length, hasMore: false }], pageParams: [1] });
const read = (qc: QueryClient, params: TicketListParams) => qc.getQueryData<{ pages: TicketListResponse[] }>(ticketKeys.list(params))?.pages[0];

describe("live ticket list updates", () => {
  it("moves an accepted ticket from pending to the top of open, with counters", () => {
    const qc = new QueryClient();
    const pending = { status: "pending" } as const;
    const open = { status: "open" } as const;
    seed(qc, pending, [aTicket({ id: 1, status: "pending" }), aTicket({ id: 2, status: "pending" })]);
    seed(qc, open, [aTicket({ id: 3, status: "open" })]);
    applyTicketUpdate(qc, aTicket({ id: 1, status: "open", userId: 2 }));
    expect(read(qc, pending)?.tickets.map((t) => t.id)).toEqual([2]);
    expect(read(qc, pending)?.count).toBe(1);
    expect(read(qc, open)?.tickets.map((t) => t.id)).toEqual([1, 3]);
    expect(read(qc, open)?.count).toBe(2);
  });

  it("a new message moves the ticket to the top without duplicating it", () => {
    const qc = new QueryClient();
    const open = { status: "open" } as const;
    seed(qc, open, [aTicket({ id: 3 }), aTicket({ id: 4 })]);
    applyTicketUpdate(qc, aTicket({ id: 4, lastMessage: "novo", unreadMessages: 2 }));
    expect(read(qc, open)?.tickets.map((t) => [t.id, t.lastMessage])).toEqual([
      [4, "novo"],
      [3, "oi"],
    ]);
    expect(read(qc, open)?.count).toBe(2);
  });

  it("a state older than what the list shows (lower version) is ignored; an equal or newer one applies", () => {
    const qc = new QueryClient();
    const open = { status: "open" } as const;
    const pending = { status: "pending" } as const;
    seed(qc, open, [aTicket({ id: 5, status: "open", lastMessage: "segunda", version: 7 })]);
    seed(qc, pending, []);
    applyTicketUpdate(qc, aTicket({ id: 5, status: "pending", lastMessage: "primeira", version: 6 }));
    expect(read(qc, open)?.tickets.map((t) => [t.id, t.lastMessage])).toEqual([[5, "segunda"]]);
    expect(read(qc, pending)?.tickets).toEqual([]);
    applyTicketUpdate(qc, aTicket({ id: 5, status: "open", lastMessage: "terceira", version: 7 }));
    expect(read(qc, open)?.tickets.map((t) => t.lastMessage)).toEqual(["terceira"]);
    applyTicketUpdate(qc, aTicket({ id: 5, status: "closed", version: 8 }));
    expect(read(qc, open)?.tickets).toEqual([]);
  });

  it("the newest state among the lists decides: one list read earlier does not let an older state through", () => {
    const qc = new QueryClient();
    const pending = { status: "pending" } as const;
    const open = { status: "open" } as const;
    // the pending list was read before the ticket was accepted, the open list after (e.g. a resync re-reads each one)
    seed(qc, pending, [aTicket({ id: 9, status: "pending", lastMessage: "antes", version: 3 })]);
    seed(qc, open, [aTicket({ id: 9, status: "open", lastMessage: "depois", version: 5 })]);
    applyTicketUpdate(qc, aTicket({ id: 9, status: "pending", lastMessage: "atrasado", version: 4 }));
    expect(read(qc, open)?.tickets.map((t) => [t.id, t.lastMessage])).toEqual([[9, "depois"]]);
    expect(read(qc, pending)?.tickets.map((t) => t.lastMessage)).toEqual(["antes"]);
  });

  it("search results are updated in place but never grow", () => {
    const qc = new QueryClient();
    const search = { searchParam: "maria", showAll: true };
    seed(qc, search, [aTicket({ id: 5 })]);
    applyTicketUpdate(qc, aTicket({ id: 6 }));
    applyTicketUpdate(qc, aTicket({ id: 5, status: "closed" }));
    expect(read(qc, search)?.tickets.map((t) => [t.id, t.status])).toEqual([[5, "closed"]]);
  });

  it("delete removes it and unread reset zeroes the counter in place", () => {
    const qc = new QueryClient();
    const open = { status: "open" } as const;
    seed(qc, open, [aTicket({ id: 7, unreadMessages: 3 }), aTicket({ id: 8 })]);
    patchTicket(qc, 7, { unreadMessages: 0 });
    expect(read(qc, open)?.tickets[0]).toMatchObject({ id: 7, unreadMessages: 0 });
    removeTicketFromLists(qc, 8);
    expect(read(qc, open)?.tickets.map((t) => t.id)).toEqual([7]);
    expect(read(qc, open)?.count).toBe(1);
  });

  it("keeps queue-less tickets in queue-filtered lists (as the server lists them) and leaves other queues out", () => {
    const params = { status: "pending" as const, queueIds: [1, 2] };
    expect(ticketMatchesList(aTicket({ status: "pending", queueId: null }), params)).toBe(true);
    expect(ticketMatchesList(aTicket({ status: "pending", queueId: 2 }), params)).toBe(true);
    expect(ticketMatchesList(aTicket({ status: "pending", queueId: 3 }), params)).toBe(false);
    expect(ticketMatchesList(aTicket({ status: "open", queueId: 1 }), params)).toBe(false);
  });
});
