import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { changeLanguage, loadAllTranslations } from "../../../lib/i18n";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import type { SessionHostView } from "../api/session-hosts";
import { SessionHostsTab } from "./session-hosts-tab";

const ago = (s: number) => Date.now() - s * 1000;
const hosts: SessionHostView[] = [
  {
    hostId: "host-1",
    pid: 4242,
    capacity: 100,
    draining: false,
    lastHeartbeatAt: ago(3),
    connections: [
      { companyId: 2, whatsappId: 1, status: "CONNECTED" },
      { companyId: 3, whatsappId: 7, status: "qrcode" },
    ],
  },
  { hostId: "host-2", pid: 4243, capacity: 100, draining: true, lastHeartbeatAt: ago(5), connections: [{ companyId: 4, whatsappId: 2, status: "CONNECTED" }] },
  { hostId: "arn:aws:ecs:us-east-1:1:task/c/abc", pid: 1, capacity: 2, draining: false, lastHeartbeatAt: ago(90), connections: [] },
];

describe("session hosts (operator, Empresas area)", { timeout: 20_000 }, () => {
  it("lists each host with its pid, state, load, last heartbeat and connections", async () => {
    const { calls } = mockFetch({ "GET /api/session-hosts": hosts });
    renderWithApp(<SessionHostsTab />, { user: aUser({ super: true }) });
    const rows = await screen.findAllByTestId("session-host-row");
    expect(rows.map((r) => r.getAttribute("data-host"))).toEqual(["host-1", "host-2", "arn:aws:ecs:us-east-1:1:task/c/abc"]);
    expect(rows[0]).toHaveTextContent("pid 4242");
    expect(within(rows[0]!).getByTestId("session-host-load")).toHaveTextContent("2 de 100 sessões");
    expect(within(rows[0]!).getByTestId("session-host-state")).toHaveAttribute("data-state", "serving");
    expect(within(rows[0]!).getAllByTestId("session-host-connection").map((c) => c.textContent)).toEqual([
      "Empresa 2 · conexão 1 · CONNECTED",
      "Empresa 3 · conexão 7 · qrcode",
    ]);
    expect(within(rows[1]!).getByTestId("session-host-state")).toHaveAttribute("data-state", "draining");
    expect(within(rows[1]!).getByTestId("session-host-state")).toHaveTextContent("Drenando");
    // no heartbeat for 90 s: silent, whatever else it says
    expect(within(rows[2]!).getByTestId("session-host-state")).toHaveAttribute("data-state", "silent");
    expect(within(rows[2]!).getByTestId("session-host-heartbeat")).toHaveTextContent(/há (9\d|1\d\d) s/); // 90 s and the test's own time
    expect(screen.getByTestId("session-hosts-summary")).toHaveTextContent("3 host(s) de sessão, 3 conexão(ões) em 102 vagas");
    expect(calls.map((c) => new URL(c.url).pathname)).toContain("/api/session-hosts");
  });

  it("speaks English and Spanish", async () => {
    mockFetch({ "GET /api/session-hosts": hosts.slice(0, 1) });
    await changeLanguage("en");
    await loadAllTranslations();
    try {
      renderWithApp(<SessionHostsTab />, { user: aUser({ super: true }) });
      expect(await screen.findByTestId("session-host-load")).toHaveTextContent("2 of 100 sessions");
      expect(screen.getByTestId("session-host-state")).toHaveTextContent("Serving");
    } finally {
      await changeLanguage("pt");
    }
  });

  it("says so when the route refuses or fails, and when no host is alive", async () => {
    mockFetch({ "GET /api/session-hosts": () => reply(403, { error: "ERR_NO_PERMISSION" }) });
    const { unmount } = renderWithApp(<SessionHostsTab />, { user: aUser({ super: true }) });
    expect(await screen.findByText("Não foi possível carregar os hosts de sessão.")).toBeInTheDocument();
    unmount();
    mockFetch({ "GET /api/session-hosts": [] });
    renderWithApp(<SessionHostsTab />, { user: aUser({ super: true }) });
    expect(await screen.findByText(/Nenhum host de sessão ativo/)).toBeInTheDocument();
  });
});
