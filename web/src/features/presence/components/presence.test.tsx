import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AgentView } from "@atende/shared/contracts/http/service-levels";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { emitRealtime } from "../../../testing/realtime";
import { renderWithApp } from "../../../testing/render";
import { AgentStatusSwitch } from "./agent-status-switch";
import { AgentsPanel } from "./agents-panel";

const me = aUser();
const agent = (over: Partial<AgentView> = {}): AgentView => ({
  userId: me.id,
  name: me.name,
  profile: "user",
  queueIds: [],
  status: "offline",
  pauseReasonId: null,
  pauseReason: null,
  since: null,
  openTickets: 0,
  capacity: 5,
  ownCapacity: null,
  lastAssignedAt: null,
  ...over,
});

describe("agent status (docs/adr/0032)", { timeout: 30_000 }, () => {
  it("the top bar switch goes online and pauses with one of the company's reasons", async () => {
    const { calls } = mockFetch({
      "GET /api/agents/me": agent(),
      "GET /api/pause-reasons": [{ id: 3, name: "Almoço", createdAt: "" }],
      "PUT /api/agents/me/status": async (req: Request) => {
        const body = (await req.json()) as { status: AgentView["status"]; pauseReasonId?: number };
        return reply(200, agent({ status: body.status, pauseReasonId: body.pauseReasonId ?? null, pauseReason: body.pauseReasonId ? "Almoço" : null }));
      },
    });
    renderWithApp(<AgentStatusSwitch />, { user: me, plan: aPlan() });
    const button = await screen.findByTestId("agent-status");
    await waitFor(() => expect(button).toHaveTextContent("Offline"));
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId("agent-status-online"));
    await waitFor(() => expect(screen.getByTestId("agent-status")).toHaveAttribute("data-status", "online"));
    await userEvent.click(screen.getByTestId("agent-status"));
    await userEvent.click(await screen.findByTestId("agent-status-pause-3"));
    await waitFor(() => expect(screen.getByTestId("agent-status")).toHaveTextContent("Pausa: Almoço"));
    const puts = await Promise.all(calls.filter((c) => c.method === "PUT").map((c) => c.json()));
    expect(puts).toEqual([{ status: "online" }, { status: "paused", pauseReasonId: 3 }]);
  });

  it("the dashboard panel lists attendants and follows status events live", async () => {
    mockFetch({ "GET /api/agents": [agent({ userId: 8, name: "Bia", status: "online", since: new Date().toISOString(), openTickets: 2 })], "GET /api/agents/me": agent(), "GET /api/pause-reasons": [] });
    renderWithApp(
      <>
        <AgentStatusSwitch />
        <AgentsPanel />
      </>,
      { user: aUser({ profile: "admin" }), plan: aPlan() },
    );
    const row = await screen.findByTestId("agent-row-8");
    expect(within(row).getByText("Online")).toBeInTheDocument();
    expect(within(row).getByTestId("agent-open-8")).toHaveTextContent("2 de 5");
    emitRealtime("user", { action: "status", agent: agent({ userId: 8, name: "Bia", status: "paused", pauseReason: "Reunião", pauseReasonId: 4, since: new Date().toISOString(), openTickets: 2 }) });
    await waitFor(() => expect(within(screen.getByTestId("agent-row-8")).getByText("Pausa: Reunião")).toBeInTheDocument());
    expect(screen.getByTestId("agent-row-8")).toHaveAttribute("data-status", "paused");
  });
});
