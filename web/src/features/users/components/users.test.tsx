import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { UserDialog } from "./user-dialog";
import { UsersPage } from "./users-page";

const user = (id: number, name: string, online = false) => ({
  id,
  name,
  email: `${name.toLowerCase()}@x.com`,
  profile: "user",
  super: false,
  online,
  companyId: 2,
  whatsappId: null,
  allTicket: "desabled",
  queueIds: [],
  queues: [],
  whatsapp: null,
  createdAt: "",
});
const pickers = { "GET /api/queue": [{ id: 1, name: "Vendas", color: "#111" }], "GET /api/whatsapp/": [{ id: 1, name: "Simulador", status: "CONNECTED" }] };

describe("users", { timeout: 30_000 }, () => {
  it("lists users with their online icon and pages on scroll", async () => {
    mockFetch({
      "GET /api/users/": (req: Request) => {
        const page = Number(new URL(req.url).searchParams.get("pageNumber"));
        return page === 1 ? { users: [user(1, "Ana", true), user(2, "Bia")], count: 3, hasMore: true } : { users: [user(3, "Caio")], count: 3, hasMore: false };
      },
    });
    renderWithApp(<UsersPage />, { route: "/users", user: aUser(), plan: aPlan() });
    const rows = await screen.findAllByTestId("user-row");
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTitle("Online")).toBeInTheDocument();
    expect(within(rows[1]!).getByTitle("Offline")).toBeInTheDocument();
    const list = screen.getByTestId("users-list");
    Object.defineProperty(list, "scrollHeight", { value: 1000 });
    Object.defineProperty(list, "clientHeight", { value: 950 });
    list.dispatchEvent(new Event("scroll", { bubbles: true }));
    await waitFor(() => expect(screen.getAllByTestId("user-row")).toHaveLength(3));
  });

  it("an admin resets another user's two-factor after confirming; no reset button on their own row", async () => {
    const { calls } = mockFetch({
      "GET /api/users/": { users: [user(2, "Ana"), user(7, "Bia")], count: 2, hasMore: false },
      "DELETE /api/auth/mfa/users/7": () => new Response(null, { status: 204 }),
    });
    renderWithApp(<UsersPage />, { route: "/users", user: aUser({ id: 2 }), plan: aPlan() });
    const rows = await screen.findAllByTestId("user-row");
    expect(within(rows[0]!).queryByTestId("user-mfa-reset")).toBeNull();
    await userEvent.click(within(rows[1]!).getByTestId("user-mfa-reset"));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Redefinir a verificação em duas etapas de Bia?");
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/api/auth/mfa/users/7"))).toBe(true));
    expect(await screen.findByText("Verificação em duas etapas redefinida.")).toBeInTheDocument();
  });

  it("an admin sees the profile and queue pickers; an attendant editing themselves does not", async () => {
    mockFetch(pickers);
    const { unmount } = renderWithApp(<UserDialog user={null} onClose={() => undefined} />, { route: "/users", user: aUser(), plan: aPlan() });
    expect(await screen.findByLabelText("Perfil")).toBeInTheDocument();
    expect(screen.getByLabelText("Filas")).toBeInTheDocument();
    unmount();
    mockFetch(pickers);
    renderWithApp(<UserDialog user={user(5, "Eu") as never} onClose={() => undefined} />, { route: "/users", user: aUser({ id: 5, profile: "user" }), plan: aPlan() });
    await screen.findByLabelText("Nome");
    expect(screen.queryByLabelText("Perfil")).toBeNull();
    expect(screen.queryByLabelText("Filas")).toBeNull();
  });

  it("validates with the spec's messages and sends nothing until valid", async () => {
    const { calls } = mockFetch({ ...pickers, "POST /api/users": () => reply(201, user(9, "Nova")) });
    renderWithApp(<UserDialog user={null} onClose={() => undefined} />, { route: "/users", user: aUser(), plan: aPlan() });
    await userEvent.type(await screen.findByLabelText("Nome"), "N");
    await userEvent.type(screen.getByLabelText("E-mail"), "x");
    await userEvent.type(screen.getByLabelText("Senha"), "123");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);
    expect(screen.getByText("E-mail inválido")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });
});
