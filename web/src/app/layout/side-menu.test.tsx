import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { visibleMenuItems } from "@atende/shared/domain/menu/menu";
import { planFlagsOf } from "@atende/shared/domain/plans/plan";
import { mockFetch } from "../../testing/fetch-mock";
import { aPlan, aUser } from "../../testing/fixtures";
import { renderWithApp } from "../../testing/render";
import { SideMenu } from "./side-menu";

// The indicators belong to the connections and internal-chat features; here only the hook point is tested.
const indicators = vi.hoisted(() => ({ connections: false, chats: false }));
vi.mock("./menu-indicators", () => ({ useConnectionsAlert: () => indicators.connections, useUnreadInternalChats: () => indicators.chats }));

const labels = async () => {
  const menu = await screen.findByTestId("side-menu");
  return within(menu)
    .getAllByRole("link")
    .map((link) => link.textContent);
};

const renderMenu = (user = aUser(), plan = aPlan()) => {
  mockFetch({ "GET /api/version": { version: "1.2.3" } });
  return renderWithApp(<SideMenu onLogout={() => {}} />, { route: "/tickets", user, plan });
};

describe("side menu", { timeout: 20_000 }, () => {
  it("an attendant sees only the shared entries", async () => {
    renderMenu(aUser({ profile: "user" }));
    expect(await labels()).toEqual(["Atendimentos", "Respostas rápidas", "Kanban", "Tarefas", "Contatos", "Agendamentos", "Tags", "Chat interno", "Ajuda"]);
  });

  it("an admin also sees the management entries, but not announcements", async () => {
    renderMenu();
    const items = await labels();
    expect(items).toEqual(expect.arrayContaining(["Dashboard", "Conexões", "Usuários", "Configurações", "Campanhas", "Filas & Chatbot", "Financeiro"]));
    expect(items).not.toContain("Informativos");
    expect(await screen.findByText("Versão 1.2.3")).toBeInTheDocument();
  });

  it("a supervisor sees the dashboard, the cockpit and reports, and none of the configuration (issue 34)", async () => {
    renderMenu(aUser({ profile: "supervisor" }));
    const items = await labels();
    expect(items).toEqual(expect.arrayContaining(["Dashboard", "Supervisão", "Relatórios", "Atendimentos"]));
    for (const hidden of ["Conexões", "Usuários", "Configurações", "Filas & Chatbot", "Financeiro", "Campanhas", "Auditoria"]) expect(items).not.toContain(hidden);
  });

  it("an attendant does not see the cockpit; an admin does", async () => {
    const keys = (profile: "user" | "admin" | "supervisor") => visibleMenuItems({ profile, super: false, campaignsEnabled: true }, planFlagsOf(aPlan())).map((i) => i.key);
    expect(keys("user")).not.toContain("supervisor");
    expect(keys("user")).not.toContain("reports");
    expect(keys("admin")).toEqual(expect.arrayContaining(["supervisor", "reports", "dashboard", "settings"]));
    expect(keys("supervisor")).toEqual(expect.arrayContaining(["supervisor", "reports", "dashboard"]));
    expect(keys("supervisor")).not.toContain("settings");
  });

  it("a super user sees announcements", async () => {
    renderMenu(aUser({ super: true }));
    expect(await labels()).toContain("Informativos");
  });

  it("plan flags and the campaignsEnabled setting hide their entries", async () => {
    const user = aUser({ company: { ...aUser().company, settings: [{ key: "campaignsEnabled", value: "false" }] } });
    renderMenu(user, aPlan({ useKanban: false, useSchedules: false, useInternalChat: false, useOpenAi: false, useExternalApi: false, useIntegrations: false }));
    const items = await labels();
    for (const hidden of ["Kanban", "Agendamentos", "Chat interno", "Campanhas", "Listas de contatos", "Open.AI", "API", "Integrações"]) expect(items).not.toContain(hidden);
    expect(items).toContain("Conexões");
  });

  it("the shared rule: campaigns need the plan flag and the setting", () => {
    const admin = { profile: "admin" as const, super: false, campaignsEnabled: true };
    const keys = (viewer: typeof admin, flags = planFlagsOf(aPlan())) => visibleMenuItems(viewer, flags).map((i) => i.key);
    expect(keys(admin)).toContain("campaigns");
    expect(keys({ ...admin, campaignsEnabled: false })).not.toContain("campaigns");
    expect(keys(admin, planFlagsOf(aPlan({ useCampaigns: false })))).not.toContain("campaigns");
  });

  it("shows the connections badge and the internal-chat dot when their features say so", async () => {
    indicators.connections = true;
    indicators.chats = true;
    try {
      renderMenu();
      expect(await screen.findByTestId("connections-alert")).toBeInTheDocument();
      expect(screen.getByTestId("chats-unread")).toBeInTheDocument();
    } finally {
      indicators.connections = false;
      indicators.chats = false;
    }
  });

  it("no badge or dot by default", async () => {
    renderMenu();
    await labels();
    expect(screen.queryByTestId("connections-alert")).not.toBeInTheDocument();
    expect(screen.queryByTestId("chats-unread")).not.toBeInTheDocument();
  });
});
