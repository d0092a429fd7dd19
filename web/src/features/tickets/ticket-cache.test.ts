import { describe, expect, it } from "vitest";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { ticketMatchesList } from "./ticket-cache";

const ticket = (over: Partial<TicketView>) => ({ id: 1, status: "pending", queueId: null, ...over }) as TicketView;

describe("ticketMatchesList", () => {
  it("keeps queue-less tickets in queue-filtered lists (as the server lists them) and leaves other queues out", () => {
    const params = { status: "pending" as const, queueIds: [1, 2] };
    expect(ticketMatchesList(ticket({ queueId: null }), params)).toBe(true);
    expect(ticketMatchesList(ticket({ queueId: 2 }), params)).toBe(true);
    expect(ticketMatchesList(ticket({ queueId: 3 }), params)).toBe(false);
    expect(ticketMatchesList(ticket({ queueId: 1, status: "open" }), params)).toBe(false);
  });
});
