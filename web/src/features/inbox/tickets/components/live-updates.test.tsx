import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AppMessageEventData } from "@atende/shared/contracts/http/messages";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { emitRealtime } from "../../../../testing/realtime";
import { aMessage, aTicket } from "../testing/ticket-fixtures";
import { NotificationsPopover } from "./notifications-popover";
import { TicketsPage } from "./tickets-page";

const emit = emitRealtime;

const routes = {
  "GET /api/tickets": (req: Request) => {
    const url = new URL(req.url);
    if (url.searchParams.get("status") === "open") return { tickets: [aTicket({ id: 1, status: "open" })], count: 1, hasMore: false };
    return { tickets: [], count: 0, hasMore: false };
  },
  "GET /api/tags/list": [],
  "GET /api/quick-messages/list": [],
  "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false },
  "GET /api/tickets/u/uuid-1": aTicket({ id: 1 }),
  "GET /api/messages/1": { messages: [aMessage({ id: "a", body: "primeira" })], ticket: aTicket({ id: 1 }), count: 1, hasMore: false },
};

describe("live inbox", { timeout: 30_000 }, () => {
  it("a customer's first message shows in the pending tab, rings the bell and counts in the tab title", async () => {
    mockFetch(routes);
    renderWithApp(
      <>
        <NotificationsPopover />
        <TicketsPage />
      </>,
      { route: "/tickets", path: "/tickets/:ticketId?", user: aUser(), plan: aPlan() },
    );
    await screen.findByTestId("ticket-card");
    await userEvent.click(screen.getByTestId("subtab-pending"));
    await screen.findByText("Nada aqui!");
    const ticket = aTicket({ id: 2, status: "pending", userId: null, user: null, unreadMessages: 1, lastMessage: "Olá, preciso de ajuda", contact: { ...aTicket().contact!, name: "Novo Cliente" } });
    const data: AppMessageEventData = { action: "create", message: aMessage({ id: "x", ticketId: 2, body: "Olá, preciso de ajuda" }), ticket, contact: ticket.contact };
    emit("appMessage", data);
    const card = await screen.findByTestId("ticket-card");
    expect(within(card).getByText("Novo Cliente")).toBeInTheDocument();
    expect(within(card).getByText("Olá, preciso de ajuda")).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("(1) Atende"));
    expect(screen.getByTestId("notifications-count")).toHaveTextContent("1");
    emit("ticket", { action: "updateUnread", ticketId: 2 });
    await waitFor(() => expect(document.title).toBe("Atende"));
    emit("ticket", { action: "delete", ticketId: 2 });
    await waitFor(() => expect(screen.queryByTestId("ticket-card")).toBeNull());
  });

  it("the open conversation gets new messages, ack changes and presence without a reload", async () => {
    mockFetch(routes);
    renderWithApp(
      <>
        <NotificationsPopover />
        <TicketsPage />
      </>,
      { route: "/tickets/uuid-1", path: "/tickets/:ticketId?", user: aUser(), plan: aPlan() },
    );
    const list = await screen.findByTestId("messages-list");
    await within(list).findByText("primeira");
    const ticket = aTicket({ id: 1 });
    emit("appMessage", { action: "create", message: aMessage({ id: "b", fromMe: true, ack: 1, body: "resposta", createdAt: "2026-05-10T12:05:00.000Z" }), ticket, contact: ticket.contact });
    await within(list).findByText("resposta");
    expect(within(list).getByTestId("ack-sent")).toBeInTheDocument();
    emit("appMessage", { action: "update", message: aMessage({ id: "b", fromMe: true, ack: 3, body: "resposta", createdAt: "2026-05-10T12:05:00.000Z" }), ticket, contact: ticket.contact });
    await waitFor(() => expect(within(list).getByTestId("ack-delivered")).toBeInTheDocument());
    emit("presence", { ticketId: 1, presence: "composing" });
    expect(await screen.findByText("digitando...")).toBeInTheDocument();
    emit("presence", { ticketId: 1, presence: "paused" });
    await waitFor(() => expect(screen.queryByText("digitando...")).toBeNull());
  });
});
