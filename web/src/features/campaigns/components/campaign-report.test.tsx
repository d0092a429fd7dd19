import { act, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import type { RealtimeEvent } from "@atende/shared/contracts/ws-events";
import type * as RealtimeModule from "../../../lib/realtime";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { CampaignReportPage } from "./campaign-report-page";

/** The realtime module is replaced by an in-memory bus so the test can play server frames. */
const bus = vi.hoisted(() => new Map<string, Set<(data: unknown) => void>>());
vi.mock("../../../lib/realtime", async (original) => {
  const actual = await original<typeof RealtimeModule>();
  const { useEffect, useRef } = await import("react");
  return {
    ...actual,
    useRealtime: (event: RealtimeEvent, handler: (data: unknown) => void) => {
      const ref = useRef(handler);
      ref.current = handler;
      useEffect(() => {
        const fn = (data: unknown) => ref.current(data);
        if (!bus.has(event)) bus.set(event, new Set());
        bus.get(event)?.add(fn);
        return () => void bus.get(event)?.delete(fn);
      }, [event]);
    },
  };
});
const emit = (event: RealtimeEvent, data: unknown) => act(() => bus.get(event)?.forEach((fn) => fn(data)));

const view = (counts: Partial<CampaignView["counts"]>, status: CampaignView["status"] = "EM_ANDAMENTO") =>
  ({
    id: 7,
    name: "Black Friday",
    status,
    scheduledAt: "2026-06-01T12:00:00.000Z",
    completedAt: null,
    contactList: { id: 3, name: "Clientes" },
    whatsapp: { id: 1, name: "Loja" },
    counts: { valid: 4, delivered: 1, failed: 0, confirmationRequested: 0, confirmed: 0, progress: 25, ...counts },
  }) as CampaignView;

describe("campaign report", { timeout: 30_000 }, () => {
  it("shows the counts and progress, and refreshes on this campaign's socket update only", async () => {
    let current = view({});
    const { calls } = mockFetch({ "GET /api/campaigns/7": () => current });
    renderWithApp(<CampaignReportPage />, { route: "/campaign/7/report", path: "/campaign/:campaignId/report", user: aUser(), plan: aPlan() });
    expect(await screen.findByText("25%")).toBeInTheDocument();
    expect(screen.getByTestId("count-valid")).toHaveTextContent("4");
    expect(screen.getByTestId("count-delivered")).toHaveTextContent("1");

    current = view({ delivered: 2, progress: 50 });
    await emit("campaign", { action: "update", record: { ...current, id: 8 } });
    expect(screen.getByText("25%")).toBeInTheDocument();
    await emit("campaign", { action: "update", record: current });
    expect(await screen.findByText("50%")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(2);
  });
});
