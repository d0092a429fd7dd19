import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { formatDate } from "@atende/shared/domain/format/dates";
import { AppProviders } from "../../../app/providers";
import { AppRoutes } from "../../../app/router";
import { restoreSession } from "../../../lib/api-client";
import { createQueryClient } from "../../../lib/query-client";
import { getCompanyId, getToken, saveSession } from "../../../lib/session-storage";
import { mockFetch as mockFetchOnly, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser, signedInLayoutRoutes } from "../../../testing/fixtures";

// The shell alone: stand-ins for the pages and the bell other features own, so only the shell's own calls happen.
vi.mock("../../../app/layout/notifications-button", () => ({ NotificationsButton: () => null }));
vi.mock("../../../app/layout/menu-indicators", () => ({ useConnectionsAlert: () => false, useUnreadInternalChats: () => false }));
vi.mock("../../../app/routes", async () => {
  const { LoginPage } = await import("./login-page");
  const { useTranslation } = await import("react-i18next");
  // a page stand-in: just its translated title
  const soon = (titleKey: string) =>
    function StandIn() {
      return <h1>{useTranslation().t(titleKey)}</h1>;
    };
  return {
    PUBLIC_ROUTES: [
      { path: "/login", titleKey: "auth:title", Component: LoginPage },
      { path: "/signup", titleKey: "auth:signup", Component: soon("auth:signup") },
    ],
    PRIVATE_ROUTES: [
      { path: "/", titleKey: "menu:dashboard", Component: soon("menu:dashboard"), adminOnly: true, deniedRedirect: "/tickets" },
      { path: "/tickets/:ticketId?", titleKey: "menu:tickets", Component: soon("menu:tickets") },
      { path: "/contacts", titleKey: "menu:contacts", Component: soon("menu:contacts") },
      { path: "/kanban", titleKey: "menu:kanban", Component: soon("menu:kanban"), planFlag: "useKanban" },
      { path: "/users", titleKey: "menu:users", Component: soon("menu:users"), adminOnly: true },
    ],
  };
});

const publicSettings = (viewregister: string) => ({ allowregister: "enabled", viewregister, trial: "3", logos: {} });
/** Every page here is the login page or behind it: the public settings call always happens. */
const mockFetch = (routes: Parameters<typeof mockFetchOnly>[0]) => mockFetchOnly({ "GET /api/public/settings": publicSettings("enabled"), ...routes });

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

const renderApp = (route: string) =>
  render(
    <AppProviders queryClient={createQueryClient()} realtime={false}>
      <MemoryRouter initialEntries={[route]} useTransitions={false}>
        <AppRoutes />
        <Where />
      </MemoryRouter>
    </AppProviders>,
  );

const signedInRoutes = (user = aUser()) => ({
  ...signedInLayoutRoutes(user),
  // the signed-in shell starts /tickets' first lists with the page's code (app/router.tsx)
  "GET /api/tickets": { tickets: [], count: 0, hasMore: false },
});

const fillAndSubmit = async (email: string, password: string) => {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Senha"), password);
  await user.click(screen.getByRole("button", { name: "Entrar" }));
};

describe("login page", { timeout: 20_000 }, () => {
  it("signs in, says so and opens /tickets", async () => {
    const { calls } = mockFetch({ "POST /api/auth/login": { token: "tok", user: aUser() }, ...signedInRoutes() });
    renderApp("/login");
    await fillAndSubmit("Admin@Demo.com.br", "Admin1234");
    expect(await screen.findByText("Login efetuado com sucesso!")).toBeInTheDocument();
    expect(await screen.findByTestId("side-menu")).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/tickets");
    expect(await calls.find((c) => c.method === "POST")?.json()).toEqual({ email: "admin@demo.com.br", password: "Admin1234" });
    // the token is kept in memory only: nothing a script could read from storage
    expect(getToken()).toBe("tok");
    expect(getCompanyId()).toBe(2);
    expect({ ...localStorage }).not.toHaveProperty("token");
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain("tok");
  });

  it("with two-factor on, the password leads to the code step, and the code signs in", async () => {
    const { calls } = mockFetch({
      "POST /api/auth/login": { mfaRequired: true, mfaToken: "m".repeat(43), setupRequired: false },
      "POST /api/auth/mfa/verify": { token: "tok", user: aUser() },
      ...signedInRoutes(),
    });
    renderApp("/login");
    await fillAndSubmit("admin@demo.com.br", "Admin1234");
    const user = userEvent.setup();
    await user.type(await screen.findByTestId("mfa-code"), "123456");
    expect(screen.getByTestId("where")).toHaveTextContent("/login");
    expect(getToken()).not.toBe("tok");
    await user.click(screen.getByTestId("mfa-verify"));
    expect(await screen.findByTestId("side-menu")).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/tickets");
    expect(await calls.find((c) => c.url.endsWith("/auth/mfa/verify"))!.json()).toEqual({ mfaToken: "m".repeat(43), code: "123456" });
    expect(getToken()).toBe("tok");
  });

  it("wrong credentials show the translated error", async () => {
    mockFetch({ "POST /api/auth/login": reply(401, { error: "ERR_INVALID_CREDENTIALS" }) });
    renderApp("/login");
    await fillAndSubmit("admin@demo.com.br", "nope");
    expect(await screen.findByText("Erro de autenticação. Verifique o e-mail e a senha.")).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/login");
  });

  it("an expired company shows the date it expired and to contact support", async () => {
    mockFetch({ "POST /api/auth/login": reply(402, { error: "ERR_COMPANY_EXPIRED", data: { dueDate: "2026-03-10T12:00:00.000Z" } }) });
    renderApp("/login");
    await fillAndSubmit("admin@demo.com.br", "Admin1234");
    expect(await screen.findByTestId("company-expired")).toHaveTextContent(`Sua assinatura venceu em ${formatDate("2026-03-10T12:00:00.000Z")}. Entre em contato com o suporte`);
  });

  it("too many attempts is translated", async () => {
    mockFetch({ "POST /api/auth/login": reply(429, { error: "ERR_TOO_MANY_ATTEMPTS" }) });
    renderApp("/login");
    await fillAndSubmit("admin@demo.com.br", "x");
    expect(await screen.findByText(/Muitas tentativas de acesso/)).toBeInTheDocument();
  });

  it("warns when fewer than 5 days remain, singular for one day", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const user = aUser({ company: { ...aUser().company, dueDate: tomorrow } });
    mockFetch({ "POST /api/auth/login": { token: "tok", user }, ...signedInRoutes(user) });
    renderApp("/login");
    await fillAndSubmit("admin@demo.com.br", "Admin1234");
    expect(await screen.findByText("Sua assinatura vence em 1 dia.")).toBeInTheDocument();
  });

  it("a blank form is not sent", async () => {
    const { calls } = mockFetch({});
    renderApp("/login");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("E-mail inválido")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });
});

describe("route guards", { timeout: 20_000 }, () => {
  it("a private page without a session goes to /login", async () => {
    mockFetch({});
    renderApp("/contacts");
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/login");
  });

  it("after a reload the refresh cookie restores the session; an attendant on / goes to /tickets", async () => {
    const { calls } = mockFetch({ "POST /api/auth/refresh_token": { token: "tok", user: aUser({ profile: "user" }) }, ...signedInRoutes() });
    localStorage.setItem("signedIn", "1"); // this browser signed in before the reload
    void restoreSession();
    renderApp("/");
    expect(await screen.findByRole("heading", { name: "Atendimentos" })).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/tickets");
    expect(calls.filter((c) => c.url.endsWith("/auth/refresh_token"))).toHaveLength(1);
    expect(getToken()).toBe("tok");
  });

  it("the refresh public/session-boot.js started before the modules loaded is taken over, not asked again", async () => {
    const { calls } = mockFetch({ ...signedInRoutes() });
    localStorage.setItem("signedIn", "1");
    const early = new Response(JSON.stringify({ token: "early-tok", user: aUser({ profile: "user" }) }), { status: 200, headers: { "content-type": "application/json" } });
    (globalThis as { __atendeEarly?: unknown }).__atendeEarly = { at: performance.now(), refresh: Promise.resolve(early), gets: {} };
    void restoreSession();
    renderApp("/");
    expect(await screen.findByRole("heading", { name: "Atendimentos" })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith("/auth/refresh_token"))).toHaveLength(0);
    expect(getToken()).toBe("early-tok");
    expect((globalThis as { __atendeEarly?: { refresh: unknown } }).__atendeEarly?.refresh).toBeNull();
  });

  it("after a reload without a valid refresh cookie a private page goes to /login", async () => {
    mockFetch({ "POST /api/auth/refresh_token": reply(401, { error: "ERR_SESSION_EXPIRED" }) });
    localStorage.setItem("signedIn", "1"); // this browser signed in before the reload
    void restoreSession();
    renderApp("/contacts");
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("where")).toHaveTextContent("/login"));
    expect(getToken()).toBeNull();
  });

  it("a browser that never signed in (or signed out) does not ask for a refresh after a load", async () => {
    const { calls } = mockFetch({});
    void restoreSession();
    renderApp("/contacts");
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith("/auth/refresh_token"))).toHaveLength(0);
  });

  it("a signed-in user on a public page goes to /", async () => {
    mockFetch({ "POST /api/auth/refresh_token": { token: "tok", user: aUser() }, ...signedInRoutes() });
    localStorage.setItem("signedIn", "1"); // this browser signed in before the reload
    void restoreSession();
    renderApp("/signup");
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent(/^\/$/);
  });

  it("a page the plan does not include: toast, then / after 1 s (an attendant lands on /tickets)", async () => {
    saveSession("tok");
    mockFetch({
      "GET /api/auth/me": aUser({ profile: "user" }),
      "GET /api/companies/listPlan/2": { id: 2, name: "Demo", dueDate: null, plan: aPlan({ useKanban: false }) },
      "GET /api/version": { version: "1.0.0" },
      "GET /api/announcements": { records: [], hasMore: false },
      "GET /api/chats": { records: [], hasMore: false },
      "GET /api/agents/me": { userId: 2, name: "Ana", profile: "user", queueIds: [], status: "offline", pauseReasonId: null, pauseReason: null, since: null, openTickets: 0, capacity: 5, ownCapacity: null, lastAssignedAt: null },
      "GET /api/pause-reasons": [],
    });
    renderApp("/kanban");
    expect(await screen.findByText("Sua empresa não tem permissão para acessar esta página. Redirecionando...")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Kanban" })).not.toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Atendimentos" }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByTestId("where")).toHaveTextContent("/tickets");
  });

  it("an admin page for an attendant: no-permission toast and no page", async () => {
    saveSession("tok");
    mockFetch({ "GET /api/auth/me": aUser({ profile: "user" }), ...signedInRoutes() });
    renderApp("/users");
    expect(await screen.findByText("Você não tem permissão para acessar este recurso.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Usuários" })).not.toBeInTheDocument();
  });

  it("a token the server no longer accepts ends on /login with the token cleared", async () => {
    saveSession("stale");
    mockFetch({ "GET /api/auth/me": reply(401, { error: "ERR_SESSION_EXPIRED" }) });
    renderApp("/tickets");
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });

  it("shows 'Criar conta' only while the operator keeps sign-up visible", async () => {
    mockFetchOnly({ "GET /api/public/settings": publicSettings("enabled") });
    const { unmount } = renderApp("/login");
    expect(await screen.findByRole("link", { name: "Criar conta" })).toBeInTheDocument();
    unmount();
    const { calls } = mockFetchOnly({ "GET /api/public/settings": publicSettings("disabled") });
    renderApp("/login");
    await screen.findByLabelText("Email");
    // the answer has arrived and rendered: the link stays hidden because the switch is off, not because it is loading
    await vi.waitFor(() => expect(calls.some((c) => c.url.endsWith("/api/public/settings"))).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByRole("link", { name: /esqueci|forgot/i })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Criar conta" })).not.toBeInTheDocument();
  });
});
