import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ReportExportView, ReportRow } from "@atende/shared/contracts/http/reports";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { emitRealtime } from "../../../testing/realtime";
import { renderWithApp } from "../../../testing/render";
import { ReportsPage } from "./reports-page";

const row = (over: Partial<ReportRow>): ReportRow => ({
  ticketId: 7,
  protocol: "202603100001",
  status: "closed",
  contact: { id: 1, name: "Ana Souza", number: "5511970000101" },
  whatsapp: { id: 1, name: "Comercial" },
  queue: { id: 2, name: "Suporte" },
  queuePath: [
    { id: 1, name: "Vendas" },
    { id: 2, name: "Suporte" },
  ],
  user: { id: 3, name: "João" },
  users: [
    { id: 4, name: "Maria" },
    { id: 3, name: "João" },
  ],
  queuedAt: "2026-03-10T12:00:00.000Z",
  acceptedAt: "2026-03-10T12:04:00.000Z",
  firstResponseAt: "2026-03-10T12:05:00.000Z",
  finishedAt: "2026-03-10T12:10:00.000Z",
  waitSeconds: 240,
  firstResponseSeconds: 300,
  handlingSeconds: 3965,
  abandoned: false,
  rating: 3,
  ratingRequested: true,
  sla: { firstResponse: "met", nextResponse: null, resolution: "breached", overall: "breached" },
  tags: [{ id: 9, name: "VIP", color: "#f00" }],
  ...over,
});
const summary = { total: 2, pending: 0, open: 0, closed: 2, abandoned: 1, avgWaitTime: 4, avgFirstResponseTime: 5, avgSupportTime: 66.1, slaMet: 0, slaBreached: 1 };
const job = (over: Partial<ReportExportView>): ReportExportView => ({
  id: "8a4c7a4e-9f5e-4a52-8d0e-3f2a1b6c9d01",
  format: "xlsx",
  status: "running",
  progress: 0,
  rows: 0,
  downloadUrl: null,
  expiresAt: null,
  error: null,
  createdAt: "2026-03-31T12:00:00.000Z",
  updatedAt: "2026-03-31T12:00:00.000Z",
  ...over,
});

describe("Relatórios page", { timeout: 30_000 }, () => {
  it("shows the cycles with their figures, filters them, explains the metrics and exports with progress", async () => {
    const { calls } = mockFetch({
      "GET /api/queue": [{ id: 1, name: "Vendas", color: "#111" }, { id: 2, name: "Suporte", color: "#222" }],
      "GET /api/users/list": [{ id: 3, name: "João" }, { id: 4, name: "Maria" }],
      "GET /api/whatsapp/": [{ id: 1, name: "Comercial" }],
      "GET /api/tags/list": [{ id: 9, name: "VIP", color: "#f00" }],
      "GET /api/ticket/reports": (req: Request) => {
        const q = new URL(req.url).searchParams;
        const tickets = q.get("status") === "closed" && q.get("queueIds") === "[1]" ? [row({})] : [row({}), row({ ticketId: 8, protocol: null, abandoned: true, users: [], user: null, rating: null, contact: { id: 2, name: "Bruno", number: "5511970000102" } })];
        return { tickets, totalTickets: tickets.length, summary: { ...summary, total: tickets.length } };
      },
      "GET /api/reports/csat": {
        total: { requests: 4, answers: 3, unsatisfied: 1, satisfied: 1, verySatisfied: 1, score: 66.7, responseRate: 75 },
        byUser: [{ id: 3, name: "João", requests: 4, answers: 3, unsatisfied: 1, satisfied: 1, verySatisfied: 1, score: 66.7, responseRate: 75 }],
        byQueue: [],
      },
      "POST /api/reports/exports": () => reply(202, { job: job({}) }),
      "GET /api/reports/exports/8a4c7a4e-9f5e-4a52-8d0e-3f2a1b6c9d01": job({ progress: 10 }),
    });
    renderWithApp(<ReportsPage />, { user: aUser() });
    const user = userEvent.setup();

    const rows = await screen.findAllByTestId("report-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("202603100001");
    expect(rows[0]).toHaveTextContent("Ana Souza");
    expect(rows[0]).toHaveTextContent("Vendas › Suporte");
    expect(rows[0]).toHaveTextContent("Maria, João");
    expect(rows[0]).toHaveTextContent("0:04:00"); // wait
    expect(rows[0]).toHaveTextContent("1:06:05"); // handling
    expect(rows[0]).toHaveTextContent("Muito satisfeito");
    expect(rows[0]).toHaveTextContent("Violado");
    expect(within(rows[0]!).getByText("VIP")).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("#8");
    expect(rows[1]).toHaveTextContent("Abandonado");
    expect(screen.getByTestId("report-avg-wait")).toHaveTextContent("4 minutos");
    expect(screen.getByTestId("report-avg-handling")).toHaveTextContent("66.1 minutos");
    expect(screen.getByTestId("report-abandoned")).toHaveTextContent("1");
    expect(await screen.findByTestId("report-csat-total")).toHaveTextContent("CSAT 66.7 % · taxa de resposta 75 % (3 respostas de 4 pedidos)");
    expect(within(screen.getByTestId("report-csat-users")).getByText("João")).toBeInTheDocument();
    const definitions = screen.getByTestId("report-definitions");
    expect(definitions).toHaveTextContent("Espera");
    expect(definitions).toHaveTextContent("até um atendente aceitá-lo");
    expect(definitions).toHaveTextContent("Abandonado");

    // the month is the default period; the filters reach the server as the spec's clients send them
    const firstUrl = new URL(calls.find((c) => c.url.includes("/ticket/reports"))!.url);
    expect(firstUrl.searchParams.get("dateFrom")).toMatch(/^\d{4}-\d{2}-01$/);
    expect(firstUrl.searchParams.get("pageSize")).toBe("50");
    await user.click(within(screen.getByTestId("report-status")).getByRole("combobox"));
    await user.click(await screen.findByRole("option", { name: "Finalizado" }));
    await user.click(within(screen.getByTestId("report-queues")).getByRole("combobox"));
    await user.click(await screen.findByRole("option", { name: "Vendas" }));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.getAllByTestId("report-row")).toHaveLength(1));
    const last = new URL(calls.filter((c) => c.url.includes("/ticket/reports")).at(-1)!.url);
    expect(last.searchParams.get("status")).toBe("closed");
    expect(last.searchParams.get("queueIds")).toBe("[1]");

    // a large export runs as a job: its progress comes live, then the download link
    await user.click(screen.getByTestId("report-export-xlsx"));
    const post = calls.find((c) => c.method === "POST" && c.url.includes("/reports/exports"))!;
    expect(await post.json()).toMatchObject({ format: "xlsx", locale: "pt", status: "closed", queueIds: [1] });
    expect(await screen.findByTestId("report-export-progress")).toHaveTextContent("10 %");
    emitRealtime("report", { action: "update", job: job({ progress: 45 }) });
    await waitFor(() => expect(screen.getByTestId("report-export-progress")).toHaveTextContent("45 %"));
    emitRealtime("report", { action: "update", job: job({ status: "done", progress: 100, rows: 1, downloadUrl: "/x", expiresAt: "2026-04-01T12:00:00.000Z" }) });
    expect(await screen.findByTestId("report-export-download")).toHaveTextContent("Baixar arquivo (1 linha)");
  });
});
