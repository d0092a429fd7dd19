import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "@atende/shared/domain/audit/audit";
import { mockFetch } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { AuditPage } from "./audit-page";

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: Math.random().toString(36).slice(2),
  companyId: 2,
  actor: { kind: "user", userId: 2, name: "Ana Admin", profile: "admin", super: false },
  ip: "203.0.113.7",
  action: "update",
  record: { kind: "queue", id: "3" },
  changes: { name: { from: "Vendas", to: "Vendas SP" } },
  at: "2026-05-01T15:30:00.000Z",
  ...over,
});

describe("Auditoria page", { timeout: 20_000 }, () => {
  it("shows who did what, from where, with the changed fields, and filters by action and record", async () => {
    const { calls } = mockFetch({
      "GET /api/users/list": [{ id: 2, name: "Ana Admin" }],
      "GET /api/audit-logs": (req: Request) => {
        const url = new URL(req.url);
        const logs =
          url.searchParams.get("action") === "delete"
            ? [entry({ action: "delete", record: { kind: "ticket", id: "77" }, changes: {} })]
            : [entry({}), entry({ action: "login", record: { kind: "session", id: "2" }, changes: {} })];
        return { logs, hasMore: false };
      },
    });
    renderWithApp(<AuditPage />, { user: aUser() });
    const user = userEvent.setup();
    const rows = await screen.findAllByTestId("audit-row");
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText("Ana Admin")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("203.0.113.7")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Alteração")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Fila #3")).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent("name: Vendas → Vendas SP");
    expect(within(rows[1]!).getByText("Acesso")).toBeInTheDocument();

    await user.click(within(screen.getByTestId("audit-action")).getByRole("combobox"));
    await user.click(await screen.findByRole("option", { name: "Exclusão" }));
    await waitFor(() => expect(screen.getAllByTestId("audit-row")).toHaveLength(1));
    expect(screen.getByTestId("audit-row")).toHaveTextContent("Atendimento #77");
    const last = new URL(calls.filter((c) => c.url.includes("/audit-logs")).at(-1)!.url);
    expect(last.searchParams.get("action")).toBe("delete");
    expect(last.searchParams.get("pageNumber")).toBe("1");
    expect(last.searchParams.get("companyId")).toBeNull();
  });

  it("the operator also sees the company column and filter", async () => {
    mockFetch({
      "GET /api/users/list": [],
      "GET /api/audit-logs": { logs: [entry({ companyId: 5 })], hasMore: false },
    });
    renderWithApp(<AuditPage />, { user: aUser({ super: true }) });
    await screen.findAllByTestId("audit-row");
    expect(screen.getByTestId("audit-company")).toBeInTheDocument();
    expect(screen.getByTestId("audit-row")).toHaveTextContent("5");
  });
});
