import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { emitRealtime } from "../../../testing/realtime";
import { CampaignReportPage } from "./campaign-report-page";

const emit = emitRealtime;

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
