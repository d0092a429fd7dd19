import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SearchHit } from "@atende/shared/contracts/http/search";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aMessage, aTicket } from "../../tickets/testing/ticket-fixtures";
import { TicketsPage } from "../../tickets/components/tickets-page";

const PATH = "/tickets/:ticketId?";
const baseRoutes = {
  "GET /api/tickets": { tickets: [], count: 0, hasMore: false },
  "GET /api/tags/list": [],
  "GET /api/queue": [{ id: 1, name: "Vendas", color: "#1976d2" }],
  "GET /api/whatsapp/": [{ id: 1, name: "Simulador", status: "CONNECTED" }],
  "GET /api/users/list": [],
  "GET /api/quick-messages/list": [],
  "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false },
};
const hit = (over: Partial<SearchHit> = {}): SearchHit => ({
  ticketId: 1,
  uuid: "uuid-1",
  status: "closed",
  queueId: 1,
  userId: null,
  updatedAt: "2026-10-01T12:00:00.000Z",
  protocol: null,
  contact: { id: 5, name: "Maria Souza", number: "5511987654321", profilePicUrl: null },
  field: "message",
  message: { id: "old", createdAt: "2026-10-01T12:00:00.000Z", fromMe: false },
  snippet: [
    { text: '<img src=x onerror="alert(1)"> meu ', match: false },
    { text: "boleto", match: true },
    { text: " está ", match: false },
    { text: "vencido", match: true },
  ],
  ...over,
});

let scrolled: string[] = [];
beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolled.push((this as HTMLElement).dataset.messageId ?? "");
  });
});
afterEach(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

/** Page 1 holds the newest messages; the searched message is on page 2. */
const conversation = {
  "GET /api/tickets/u/uuid-1": aTicket({ id: 1, status: "closed" }),
  "GET /api/messages/1": (req: Request) => {
    const page = Number(new URL(req.url).searchParams.get("pageNumber") ?? 1);
    return page === 1
      ? { messages: [aMessage({ id: "new1", body: "obrigada", createdAt: "2026-10-05T12:00:00.000Z" }), aMessage({ id: "new2", body: "a entrega chegou", createdAt: "2026-10-05T12:01:00.000Z" })], ticket: aTicket({ id: 1 }), count: 2, hasMore: true }
      : { messages: [aMessage({ id: "old", body: "meu boleto está vencido", createdAt: "2026-10-01T12:00:00.000Z" }), aMessage({ id: "older", body: "a entrega atrasou", createdAt: "2026-10-01T11:00:00.000Z" })], ticket: aTicket({ id: 1 }), count: 2, hasMore: false };
  },
};

describe("full-text search (web)", { timeout: 30_000 }, () => {
  it("lists tickets with the matching message highlighted as text (never markup), and opens one scrolled to the message", async () => {
    const { calls } = mockFetch({ ...baseRoutes, ...conversation, "GET /api/search": { results: [hit()], hasMore: false } });
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByTestId("tab-search"));
    // the filters are their own chunk (ADR 0047): the box shows once it is in
    await userEvent.type(await screen.findByRole("textbox", { name: /pesquisar|buscar/i }), "boleto vencido");
    const result = await screen.findByTestId("search-result", {}, { timeout: 5000 });
    expect(new URL(calls.find((c) => new URL(c.url).pathname === "/api/search")!.url).searchParams.get("q")).toBe("boleto vencido");
    expect(within(result).getByText("Maria Souza")).toBeInTheDocument();
    expect(within(result).getAllByTestId("search-match").map((m) => m.textContent)).toEqual(["boleto", "vencido"]);
    expect(within(result).getByTestId("search-snippet").textContent).toContain('<img src=x onerror="alert(1)">');
    expect(result.querySelector("img[onerror]")).toBeNull();
    await userEvent.click(result);
    // the message is on the second page: it loads, is highlighted and scrolled into view
    await waitFor(() => expect(document.querySelector('[data-message-id="old"]')).toHaveAttribute("data-focused", "true"));
    expect(scrolled).toContain("old");
    expect(calls.filter((c) => new URL(c.url).pathname === "/api/messages/1").map((c) => new URL(c.url).searchParams.get("pageNumber"))).toEqual(["1", "2"]);
  });

  it("searches inside the conversation and moves through the matches", async () => {
    const { calls } = mockFetch({
      ...baseRoutes,
      ...conversation,
      "GET /api/search/tickets/1": { matches: [{ id: "older", createdAt: "2026-10-01T11:00:00.000Z" }, { id: "new2", createdAt: "2026-10-05T12:01:00.000Z" }] },
    });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-1", path: PATH, user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByTestId("conversation-search-open"));
    await userEvent.type(screen.getByRole("textbox", { name: "Buscar mensagens" }), "entrega");
    // the newest match first
    await waitFor(() => expect(screen.getByTestId("conversation-search-count")).toHaveTextContent("1 de 2"), { timeout: 5000 });
    await waitFor(() => expect(document.querySelector('[data-message-id="new2"]')).toHaveAttribute("data-focused", "true"));
    expect(new URL(calls.find((c) => new URL(c.url).pathname === "/api/search/tickets/1")!.url).searchParams.get("q")).toBe("entrega");
    await userEvent.click(screen.getByRole("button", { name: "Anterior" }));
    // the older match is on page 2: loaded, highlighted, scrolled to
    await waitFor(() => expect(document.querySelector('[data-message-id="older"]')).toHaveAttribute("data-focused", "true"));
    expect(screen.getByTestId("conversation-search-count")).toHaveTextContent("2 de 2");
    expect(document.querySelector('[data-message-id="new2"]')).not.toHaveAttribute("data-focused");
    expect(scrolled).toEqual(expect.arrayContaining(["new2", "older"]));
    await userEvent.click(screen.getByRole("button", { name: "Fechar busca" }));
    expect(document.querySelector("[data-focused]")).toBeNull();
  });
});

describe("search translations", () => {
  const files = import.meta.glob<Record<string, unknown>>("../../../../locales/*/search.json", { eager: true, import: "default" });
  const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
    Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();
  it("has the same keys in pt, en and es", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((l) => files[`../../../../locales/${l}/search.json`] ?? {});
    expect(keys(pt ?? {}).length).toBeGreaterThan(10);
    expect(keys(en ?? {})).toEqual(keys(pt ?? {}));
    expect(keys(es ?? {})).toEqual(keys(pt ?? {}));
  });
});
