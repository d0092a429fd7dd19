import { cleanup, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CycleSla, SlaClockRecord } from "@atende/shared/contracts/http/tickets";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aTicket } from "../testing/ticket-fixtures";
import { TicketCard } from "./ticket-card";
import { TicketHeader } from "./ticket-header";

const noop = () => undefined;
const MIN = 60_000;
const NOW = new Date("2026-03-10T13:00:00.000Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * MIN).toISOString();
const clock = (over: Partial<SlaClockRecord> = {}): SlaClockRecord => ({
  targetMinutes: 60,
  startedAt: at(-30),
  dueAt: at(30),
  warnAt: at(18),
  metAt: null,
  warnedAt: null,
  breachedAt: null,
  ...over,
});
const sla = (firstResponse: SlaClockRecord | null, resolution: SlaClockRecord | null = null): CycleSla => ({ firstResponse, nextResponse: null, resolution });
const card = (ticketSla: CycleSla | null, status: "pending" | "open" | "closed" = "pending") => {
  mockFetch({ "GET /api/tags/list": [] });
  renderWithApp(<TicketCard ticket={aTicket({ id: 7, status, sla: ticketSla })} selected={false} onOpen={noop} onAccept={noop} onClose={noop} onTransfer={noop} onReopen={noop} />, {
    route: "/tickets",
    user: aUser({ profile: "admin" }),
    plan: aPlan(),
  });
  return screen.getByTestId("ticket-card");
};

describe("the ticket card's SLA states (issue 13)", () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("shows the time left, in the normal colour, before 80 %", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const el = card(sla(clock()));
    expect(el.dataset.sla).toBe("ok");
    expect(screen.getByTestId("ticket-sla").dataset.sla).toBe("ok");
    expect(screen.getByTestId("ticket-sla").textContent).toBe("1ª resposta: 30 min");
  });

  it("turns amber at 80 % of the target, even before the server's warning arrives", () => {
    vi.useFakeTimers({ now: new Date(at(19)), toFake: ["Date"] });
    const el = card(sla(clock()));
    expect(el.dataset.sla).toBe("warning");
    expect(screen.getByTestId("ticket-sla").textContent).toBe("1ª resposta: 11 min");
  });

  it("turns red on a breach and counts the delay", () => {
    vi.useFakeTimers({ now: new Date(at(45)), toFake: ["Date"] });
    const el = card(sla(clock({ warnedAt: at(18), breachedAt: at(30) })));
    expect(el.dataset.sla).toBe("breached");
    expect(screen.getByTestId("ticket-sla").textContent).toBe("1ª resposta: atrasado 15 min");
  });

  it("shows the most urgent clock: a met first response leaves resolution; a paused one waits on the customer", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    card(sla(clock({ metAt: at(-20) }), clock({ targetMinutes: 240, dueAt: at(200), warnAt: at(152) })), "open");
    expect(screen.getByTestId("ticket-sla").textContent).toBe("Resolução: 3 h 20 min");
    cleanup();
    card(sla(clock({ metAt: at(-20) }), clock({ targetMinutes: 240, dueAt: null, warnAt: null, pausedSince: at(-5) })), "open");
    expect(screen.getByTestId("ticket-sla").textContent).toBe("Resolução: aguardando cliente");
  });

  it("no clocks, or a closed ticket: no SLA chip and no colour", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    expect(card(null).dataset.sla).toBeUndefined();
    expect(screen.queryByTestId("ticket-sla")).toBeNull();
    cleanup();
    expect(card(sla(clock({ breachedAt: at(-1) })), "closed").dataset.sla).toBeUndefined();
  });

  it("the conversation header shows the protocol number", () => {
    mockFetch({ "GET /api/tags/list": [] });
    renderWithApp(<TicketHeader ticket={aTicket({ id: 8, status: "open", protocol: "20260310000042" })} onContactClick={noop} />, { route: "/tickets", user: aUser({ profile: "admin" }), plan: aPlan() });
    expect(screen.getByTestId("header-protocol").textContent).toBe("Protocolo 20260310000042");
  });
});
