import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { reply, mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aMessage, aTicket } from "../testing/ticket-fixtures";
import { firstRenderCards } from "./ticket-list";
import { TicketsPage } from "./tickets-page";

const PATH = "/tickets/:ticketId?";
const attendant = aUser({ id: 3, name: "Beto Atendente", profile: "user", queues: [{ id: 1, name: "Vendas", color: "#1976d2", UserQueue: { queueId: 1 } }] });

const listRoutes = (tickets: TicketView[]) => ({
  "GET /api/tickets": (req: Request) => {
    const url = new URL(req.url);
    if (url.searchParams.get("withUnreadMessages")) return { tickets: [], count: 0, hasMore: false };
    const status = url.searchParams.get("status");
    const list = tickets.filter((t) => !status || t.status === status);
    return { tickets: list, count: list.length, hasMore: false };
  },
  "GET /api/tags/list": [],
  "GET /api/queue": [
    { id: 1, name: "Vendas", color: "#1976d2" },
    { id: 2, name: "Suporte", color: "#9c27b0" },
  ],
  "GET /api/whatsapp/": [{ id: 1, name: "Simulador", status: "CONNECTED" }],
  "GET /api/users/list": [],
  "GET /api/quick-messages/list": [],
  "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false },
});

describe("tickets screen", { timeout: 30_000 }, () => {
  it("shows the welcome logo, the open tab with Transfer and Close, and the pending tab with Accept and Close", async () => {
    mockFetch(listRoutes([aTicket({ id: 1, status: "open", lastMessage: "*oi* tudo bem" }), aTicket({ id: 2, status: "pending", userId: null, user: null, unreadMessages: 2 })]));
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    expect(screen.getByTestId("tickets-welcome")).toBeInTheDocument();
    const card = await screen.findByTestId("ticket-card");
    expect(within(card).getByText("oi tudo bem")).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Transferir" })).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Finalizar" })).toBeInTheDocument();
    expect(within(card).getByText("Vendas")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("subtab-pending"));
    await waitFor(() => expect(screen.getByTestId("ticket-card")).toHaveAttribute("data-status", "pending"));
    const pending = screen.getByTestId("ticket-card");
    expect(within(pending).getByRole("button", { name: "Aceitar" })).toBeInTheDocument();
    expect(within(pending).getByRole("button", { name: "Finalizar" })).toBeInTheDocument();
    expect(within(pending).getByTestId("ticket-unread")).toHaveTextContent("2");
  });

  it("shows a screenful of cards in the list's first render, then the rest of the page (ADR 0047)", async () => {
    const page = Array.from({ length: 20 }, (_, i) => aTicket({ id: 100 + i, uuid: `uuid-${100 + i}`, status: "open" }));
    mockFetch(listRoutes(page));
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    // the first cards come in one render, the ones below the fold right after it
    expect(firstRenderCards()).toBeLessThan(20);
    expect(await screen.findAllByTestId("ticket-card")).toHaveLength(firstRenderCards());
    await waitFor(() => expect(screen.getAllByTestId("ticket-card")).toHaveLength(20));
    expect(screen.getAllByTestId("ticket-card").map((c) => c.getAttribute("data-ticket-id"))).toEqual(page.map((t) => String(t.id)));
  });

  it("accepting sends status open for the current user", async () => {
    const { calls } = mockFetch({
      ...listRoutes([aTicket({ id: 2, status: "pending", userId: null, user: null })]),
      "PUT /api/tickets/2": async (req: Request) => aTicket({ id: 2, status: "open", ...((await req.json()) as object) }),
      "GET /api/tickets/u/uuid-2": aTicket({ id: 2, status: "open" }),
      "GET /api/messages/2": { messages: [], ticket: aTicket({ id: 2 }), count: 0, hasMore: false },
    });
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByTestId("subtab-pending"));
    await userEvent.click(await screen.findByRole("button", { name: "Aceitar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const put = calls.find((c) => c.method === "PUT");
    expect(await put?.json()).toEqual({ status: "open", userId: 2 });
    expect(await screen.findByTestId("ticket-view")).toBeInTheDocument();
  });

  it("refuses an attendant a ticket of a foreign queue and returns to the list", async () => {
    mockFetch({ ...listRoutes([]), "GET /api/tickets/u/uuid-9": aTicket({ id: 9, uuid: "uuid-9", queueId: 2, queue: { id: 2, name: "Suporte", color: "#9c27b0" }, userId: 7 }) });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-9", path: PATH, user: attendant, plan: aPlan() });
    expect(await screen.findByText("Acesso não permitido")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("tickets-welcome")).toBeInTheDocument());
  });

  it("renders the conversation: markup, ack ticks, deleted marker, quoted message, day separators", async () => {
    mockFetch({
      ...listRoutes([]),
      "GET /api/tickets/u/uuid-1": aTicket({ id: 1 }),
      "GET /api/messages/1": {
        messages: [
          aMessage({ id: "a", body: "<b>oi</b> *negrito*", createdAt: "2026-05-09T12:00:00.000Z" }),
          aMessage({ id: "b", fromMe: true, ack: 4, body: "_lido_", quotedMsg: { id: "a", body: "oi", fromMe: false, mediaType: "chat" }, createdAt: "2026-05-10T12:00:00.000Z" }),
          aMessage({ id: "c", fromMe: true, ack: 1, body: "apagada", isDeleted: true, createdAt: "2026-05-10T12:01:00.000Z" }),
        ],
        ticket: aTicket({ id: 1 }),
        count: 3,
        hasMore: false,
      },
    });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-1", path: PATH, user: aUser(), plan: aPlan() });
    const list = await screen.findByTestId("messages-list");
    await within(list).findByText("negrito");
    expect(within(list).getByText("negrito").tagName).toBe("STRONG");
    expect(within(list).getByText("<b>oi</b>", { exact: false })).toBeInTheDocument();
    expect(within(list).getByTestId("ack-read")).toBeInTheDocument();
    expect(within(list).getByTestId("message-deleted")).toHaveTextContent("Esta mensagem foi apagada");
    expect(within(list).getByTestId("quoted-message")).toHaveTextContent("oi");
    expect(within(list).getAllByTestId("day-separator")).toHaveLength(2);
  });

  it("blocks the composer on a closed ticket", async () => {
    const { calls } = mockFetch({
      ...listRoutes([]),
      "GET /api/tickets/u/uuid-1": aTicket({ id: 1, status: "closed" }),
      "GET /api/messages/1": { messages: [], ticket: aTicket({ id: 1 }), count: 0, hasMore: false },
    });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-1", path: PATH, user: aUser(), plan: aPlan() });
    expect(await screen.findByTestId("composer-blocked")).toHaveTextContent("Reabra");
    expect(screen.queryByTestId("composer-input")).toBeNull();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("sends a signed message and never a blank one", async () => {
    const { calls } = mockFetch({
      ...listRoutes([]),
      "GET /api/tickets/u/uuid-1": aTicket({ id: 1, status: "open" }),
      "GET /api/messages/1": { messages: [], ticket: aTicket({ id: 1 }), count: 0, hasMore: false },
      "POST /api/messages/1": (_req: Request) => reply(200, aMessage({ id: "new", fromMe: true, body: "*Ana Admin:*\nolá" })),
    });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-1", path: PATH, user: aUser(), plan: aPlan() });
    const input = await screen.findByTestId("composer-input");
    await userEvent.type(input, "   {Enter}");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, "olá{Enter}");
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    expect(await calls.find((c) => c.method === "POST")?.json()).toMatchObject({ body: "*Ana Admin:*\nolá", fromMe: true });
    expect(await screen.findByText("Ana Admin:")).toBeInTheDocument();
  });

  it("loads the next page of tickets when scrolled near the bottom", async () => {
    const { calls } = mockFetch({
      ...listRoutes([]),
      "GET /api/tickets": (req: Request) => {
        const url = new URL(req.url);
        if (url.searchParams.get("withUnreadMessages") || url.searchParams.get("status") !== "open") return { tickets: [], count: 0, hasMore: false };
        const page = Number(url.searchParams.get("pageNumber"));
        return { tickets: [aTicket({ id: page * 100, contact: { ...aTicket().contact!, name: `Página ${page}` } })], count: 2, hasMore: page === 1 };
      },
    });
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    await screen.findByText("Página 1");
    fireEvent.scroll(screen.getByTestId("ticket-list"));
    expect(await screen.findByText("Página 2")).toBeInTheDocument();
    expect(screen.getAllByTestId("ticket-card")).toHaveLength(2);
    expect(calls.filter((c) => new URL(c.url).searchParams.get("status") === "open" && new URL(c.url).searchParams.get("pageNumber") === "2")).toHaveLength(1);
  });

  it("lets admins close all tickets of the tab after a confirmation, and hides it from attendants", async () => {
    const { calls } = mockFetch({ ...listRoutes([aTicket({ id: 1 })]), "POST /api/tickets/closeAll": { closed: 1 } });
    const { unmount } = renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Finalizar todos" }));
    expect(screen.getByText("Finalizar todos os atendimentos?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/closeAll"))).toBe(true));
    expect(await calls.find((c) => c.url.endsWith("/closeAll"))?.json()).toEqual({ status: "open", selectedQueueIds: [] });
    unmount();
    renderWithApp(<TicketsPage />, { route: "/tickets", path: PATH, user: attendant, plan: aPlan() });
    await screen.findByTestId("ticket-list");
    expect(screen.queryByRole("button", { name: "Finalizar todos" })).toBeNull();
  });
});
