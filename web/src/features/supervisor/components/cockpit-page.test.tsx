import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SupervisorOverview } from "@atende/shared/contracts/http/supervisor";
import { mockFetch } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { emitRealtime } from "../../../testing/realtime";
import { renderWithApp } from "../../../testing/render";
import { OVERVIEW_EVENT_COALESCE_MS } from "../api/overview";
import { CockpitPage, durationLabel } from "./cockpit-page";

const overview = (waiting: number): SupervisorOverview => ({
  queues: [
    { id: 1, name: "Vendas", waiting, longestWaitSeconds: 185, slaAtRisk: 1, slaBreached: 0, openTickets: 3 },
    { id: 2, name: "Suporte", waiting: 0, longestWaitSeconds: 0, slaAtRisk: 0, slaBreached: 0, openTickets: 1 },
  ],
  agents: [
    { id: 7, name: "Ana", status: "online", statusSince: new Date(Date.now() - 3_600_000).toISOString(), openTickets: 6, capacity: 5, oldestReplyDueSeconds: -90 },
    { id: 8, name: "Bruno", status: "paused", statusSince: null, openTickets: 1, capacity: 5, oldestReplyDueSeconds: null },
  ],
});

describe("the supervisors' cockpit (issue 34)", { timeout: 20_000 }, () => {
  it("shows queues and attendants, highlights a queue at risk and an attendant over capacity, and refreshes on events", async () => {
    let waiting = 2;
    const fetch = mockFetch({ "GET /api/supervisor/overview": () => overview(waiting) });
    renderWithApp(<CockpitPage />, { route: "/supervisor", user: aUser({ profile: "supervisor" }) });
    const vendas = await screen.findByTestId("cockpit-queue-1");
    expect(vendas).toHaveAttribute("data-risk", "at-risk");
    expect(vendas).toHaveTextContent("3 min");
    expect(screen.getByTestId("cockpit-queue-2")).toHaveAttribute("data-risk", "ok");
    expect(screen.getByTestId("cockpit-agent-7")).toHaveAttribute("data-over", "yes");
    expect(screen.getByTestId("cockpit-agent-7")).toHaveTextContent("6 / 5");
    expect(screen.getByTestId("cockpit-agent-7")).toHaveTextContent("atrasada 1 min");
    expect(screen.getByTestId("cockpit-agent-8")).toHaveAttribute("data-over", "no");
    const reads = () => fetch.calls.filter((r) => r.url.endsWith("/api/supervisor/overview")).length;
    const before = reads();
    // a burst of ticket events is one read
    waiting = 3;
    emitRealtime("ticket", { action: "updateUnread", ticketId: 1 });
    emitRealtime("ticket", { action: "updateUnread", ticketId: 2 });
    emitRealtime("user", { action: "status" });
    await waitFor(() => expect(reads()).toBe(before + 1), { timeout: OVERVIEW_EVENT_COALESCE_MS + 3_000 });
    await waitFor(() => expect(screen.getByTestId("cockpit-queue-1").querySelectorAll("td")[1]).toHaveTextContent("3"));
    await new Promise((r) => setTimeout(r, 300));
    expect(reads()).toBe(before + 1);
  });

  it("a click on a queue or an attendant opens the ticket list filtered", async () => {
    mockFetch({ "GET /api/supervisor/overview": () => overview(1) });
    renderWithApp(<CockpitPage />, { route: "/supervisor", user: aUser({ profile: "supervisor" }) });
    fireEvent.click(await screen.findByTestId("cockpit-queue-1"));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });

  it("durations read as seconds, minutes or hours", () => {
    expect(durationLabel(45)).toBe("45 s");
    expect(durationLabel(185)).toBe("3 min");
    expect(durationLabel(3_900)).toBe("1 h 05 min");
  });
});
