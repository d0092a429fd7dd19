import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TicketNoteView } from "@atende/shared/contracts/http/messages";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { emitRealtime } from "../../../../testing/realtime";
import { aTicket } from "../../tickets/testing/ticket-fixtures";
import { useInboxRealtime } from "../../tickets/use-inbox-realtime";
import { TicketNotes } from "./ticket-notes";

function Live() {
  useInboxRealtime();
  return null;
}

const botNote: TicketNoteView = { id: 9, note: "O cliente pediu para falar com um atendente: pedido 5512", ticketId: 1, contactId: 1, userId: null, user: null, createdAt: "2026-11-24T10:00:00.000Z" };

describe("ticket notes, live", { timeout: 30_000 }, () => {
  it("an open drawer shows a note the bot wrote when the ticket's update arrives, without a reload", async () => {
    let stored: TicketNoteView[] = [];
    mockFetch({ "GET /api/ticket-notes/list": () => stored });
    renderWithApp(
      <>
        <Live />
        <TicketNotes ticketId={1} contactId={1} />
      </>,
      { route: "/tickets", user: aUser(), plan: aPlan() },
    );
    await screen.findByRole("button", { name: /salvar/i });
    expect(screen.queryByText(/pediu para falar com um atendente/)).toBeNull();
    stored = [botNote];
    emitRealtime("ticket", { action: "update", ticket: aTicket({ id: 1, status: "pending", userId: null, user: null }) });
    expect(await screen.findByText(/pediu para falar com um atendente/)).toBeInTheDocument();
  });
});
