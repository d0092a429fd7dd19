import { render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { AppProviders } from "./providers";
import { AppRoutes, preloadSignedIn } from "./router";
import { createQueryClient } from "../lib/query-client";
import { saveSession } from "../lib/session-storage";
import { meQueryOptions } from "../lib/session/me";
import { mockFetch } from "../testing/fetch-mock";
import { aUser, signedInLayoutRoutes } from "../testing/fixtures";
import { aTicket } from "../features/inbox/tickets/testing/ticket-fixtures";

// (generous time limits: the first render transforms the whole layout and the tickets page on a loaded machine)
// the top bar's bell and the menu's indicators belong to other features: stand-ins, so only the shell and the page call
vi.mock("./layout/notifications-button", () => ({ NotificationsButton: () => null }));
vi.mock("./layout/menu-indicators", () => ({ useConnectionsAlert: () => false, useUnreadInternalChats: () => false }));

/** The API a signed-in /tickets load reads, answered, and a session; `calls` lists what was asked. */
const signedIn = () => {
  const user = aUser();
  const { calls } = mockFetch({
    ...signedInLayoutRoutes(user),
    "GET /api/tags/list": [],
    "GET /api/tickets": (req: Request) => {
      const status = new URL(req.url).searchParams.get("status");
      const tickets = [aTicket({ id: status === "open" ? 1 : 2, status: status === "open" ? "open" : "pending" })];
      return { tickets, count: 1, hasMore: false };
    },
  });
  const queryClient = createQueryClient();
  queryClient.setQueryData(meQueryOptions().queryKey, user);
  saveSession("test-token", user);
  return { calls, queryClient };
};

const renderTickets = (queryClient: ReturnType<typeof createQueryClient>) =>
  render(
    <AppProviders queryClient={queryClient} realtime={false}>
      <MemoryRouter initialEntries={["/tickets"]} useTransitions={false}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );

describe("signed-in shell", { timeout: 120_000 }, () => {
  it("on /tickets starts the first lists with the page's code, and the page reuses them: one request per list", async () => {
    const { calls, queryClient } = signedIn();
    renderTickets(queryClient);
    expect(await screen.findByTestId("ticket-card", {}, { timeout: 90_000 })).toHaveAttribute("data-status", "open");
    const lists = () => calls.filter((c) => new URL(c.url).pathname === "/api/tickets").map((c) => new URL(c.url).searchParams.get("status"));
    await waitFor(() => expect(lists().sort()).toEqual(["open", "pending"]));
  });

  it("with the code already in (main.tsx asks for it on a page load), the layout and the page mount in the first render: no loader first (ADR 0052)", async () => {
    const { queryClient } = signedIn();
    await preloadSignedIn("/tickets");
    const { container } = renderTickets(queryClient);
    // synchronously after the first render: the shell and the page, not the full-screen loader
    expect(container.querySelector('[data-testid="app-shell"]')).not.toBeNull();
    expect(container.querySelector('[data-testid="tickets-page"]')).not.toBeNull();
    expect(await screen.findByTestId("ticket-card", {}, { timeout: 90_000 })).toHaveAttribute("data-status", "open");
  });
});
