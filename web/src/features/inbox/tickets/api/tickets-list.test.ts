import { describe, expect, it } from "vitest";
import type { TicketListResponse } from "@atende/shared/contracts/http/tickets";
import { ticketsListOptions } from "./tickets-list";

/** The list pages by number and hands the server back the token of the page before (docs/adr/0040). */
describe("tickets list paging", () => {
  it("asks for the next page with the previous answer's token, and stops when there is no more", () => {
    const options = ticketsListOptions({ status: "closed", showAll: true });
    const page = (hasMore: boolean, nextPageToken?: string): TicketListResponse => ({ tickets: [], count: 0, hasMore, ...(nextPageToken ? { nextPageToken } : {}) });
    const first = page(true, "abc.def");
    expect(options.getNextPageParam(first, [first], 1, [1])).toEqual({ pageNumber: 2, pageToken: "abc.def" });
    const second = page(true);
    expect(options.getNextPageParam(second, [first, second], { pageNumber: 2, pageToken: "abc.def" }, [1, { pageNumber: 2, pageToken: "abc.def" }])).toEqual({ pageNumber: 3, pageToken: undefined });
    expect(options.getNextPageParam(page(false), [first, second, page(false)], 3, [])).toBeUndefined();
  });
});
