import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ChatResponse } from "@atende/shared/contracts/http/chats";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { ChatsPage } from "./chats-page";
import { InternalChatsPopover } from "./internal-chats-popover";

const me = aUser({ id: 2, name: "Ana Admin" });
const aChat = (over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: 7,
  uuid: "5b0c7a3e-1111-4222-8333-444455556666",
  title: "Plantão",
  ownerId: 2,
  users: [
    { userId: 2, unreads: 0, user: { id: 2, name: "Ana Admin" } },
    { userId: 3, unreads: 0, user: { id: 3, name: "Beto Atendente" } },
  ],
  lastMessage: "",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const userRow = (id: number, name: string) => ({ id, name, email: `${id}@x.com`, profile: "user", super: false, online: true, companyId: 2, whatsappId: null, allTicket: "desabled", queueIds: [], queues: [], whatsapp: null, createdAt: "2026-01-01T00:00:00.000Z" });

describe("internal chat page", { timeout: 60_000 }, () => {
  it("alerts when the title or the users are missing and sends nothing; then creates the chat", async () => {
    const { calls } = mockFetch({
      "GET /api/chats": { records: [], hasMore: false },
      "GET /api/users/list": [userRow(2, "Ana Admin"), userRow(3, "Beto Atendente")],
      "POST /api/chats": aChat({ id: 9, title: "Escala" }),
      "GET /api/chats/9/messages": { records: [], hasMore: false },
      // after saving, the page opens the new chat by its uuid
      [`GET /api/chats/${aChat().uuid}`]: aChat({ id: 9, title: "Escala" }),
    });
    renderWithApp(<ChatsPage />, { route: "/chats", path: "/chats/:id?", user: me, plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Nova conversa" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText("Por favor, preencha o título da conversa.")).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText("Título"), "   ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(within(dialog).getByText("Por favor, preencha o título da conversa.")).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText("Título"), "Escala");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    expect(await within(dialog).findByText("Por favor, selecione pelo menos um usuário.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.click(within(dialog).getByLabelText("Usuários"));
    // the signed-in user is the owner and is not offered
    expect(screen.queryByRole("option", { name: "Ana Admin" })).toBeNull();
    await userEvent.click(await screen.findByRole("option", { name: "Beto Atendente" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({ title: "Escala", users: [3] });
    expect(await screen.findByTestId("chat-title-bar")).toHaveTextContent("Escala");
  });

  it("ignores empty or whitespace-only messages and sends real ones; marks the open chat read", async () => {
    const chat = aChat({ users: [{ userId: 2, unreads: 2, user: { id: 2, name: "Ana Admin" } }, { userId: 3, unreads: 0, user: { id: 3, name: "Beto Atendente" } }], lastMessage: "Oi" });
    const { calls } = mockFetch({
      "GET /api/chats": { records: [chat], hasMore: false },
      "GET /api/chats/7/messages": { records: [{ id: "01A", chatId: 7, senderId: 3, sender: { id: 3, name: "Beto Atendente" }, message: "Oi", createdAt: "2026-01-01T10:00:00.000Z" }], hasMore: false },
      "POST /api/chats/7/read": chat,
      "POST /api/chats/7/messages": { id: "01B", chatId: 7, senderId: 2, sender: { id: 2, name: "Ana Admin" }, message: "Tudo certo", createdAt: "2026-01-01T10:01:00.000Z" },
    });
    renderWithApp(<ChatsPage />, { route: `/chats/${chat.uuid}`, path: "/chats/:id?", user: me, plan: aPlan() });
    expect(await screen.findByText("Oi", { selector: "p" })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/chats/7/read"))).toBe(true));

    const input = screen.getByLabelText("Digite uma mensagem");
    await userEvent.type(input, "   {Enter}");
    await userEvent.click(screen.getByRole("button", { name: "Enviar" }));
    expect(calls.some((c) => c.url.endsWith("/chats/7/messages") && c.method === "POST")).toBe(false);

    await userEvent.clear(input);
    await userEvent.type(input, "Tudo certo{Enter}");
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/chats/7/messages") && c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.url.endsWith("/chats/7/messages") && c.method === "POST")!.json()).toEqual({ message: "Tudo certo" });
    expect(await screen.findByText("Tudo certo")).toBeInTheDocument();
    expect(input).toHaveValue("");
  });

  it("loads the older page when scrolled near the top, keeping older messages above newer ones", async () => {
    const chat = aChat();
    const msg = (id: string, message: string) => ({ id, chatId: 7, senderId: 3, sender: { id: 3, name: "Beto Atendente" }, message, createdAt: "2026-01-01T10:00:00.000Z" });
    const { calls } = mockFetch({
      "GET /api/chats": { records: [chat], hasMore: false },
      "GET /api/chats/7/messages": (req: Request) =>
        new URL(req.url).searchParams.get("pageNumber") === "2"
          ? { records: [msg("01A", "mais antiga")], hasMore: false }
          : { records: [msg("01B", "recente 1"), msg("01C", "recente 2")], hasMore: true },
    });
    renderWithApp(<ChatsPage />, { route: `/chats/${chat.uuid}`, path: "/chats/:id?", user: me, plan: aPlan() });
    await screen.findByText("recente 2");
    expect(screen.queryByText("mais antiga")).toBeNull();
    const box = screen.getByTestId("chat-messages");
    // jsdom has no layout: the scroll position is whatever the test says
    let position = 0;
    Object.defineProperty(box, "scrollTop", { configurable: true, get: () => position, set: (v: number) => (position = v) });
    const scrollTo = (top: number) => {
      position = top;
      fireEvent.scroll(box);
    };
    scrollTo(700); // still more than 600 px from the top: nothing loads
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.url.includes("pageNumber=2"))).toHaveLength(0);
    scrollTo(550);
    await screen.findByText("mais antiga");
    expect(calls.filter((c) => c.url.includes("/chats/7/messages")).map((c) => new URL(c.url).searchParams.get("pageNumber"))).toEqual(["1", "2"]);
    expect(screen.getAllByTestId("chat-message").map((m) => m.textContent)).toEqual([
      expect.stringContaining("mais antiga"),
      expect.stringContaining("recente 1"),
      expect.stringContaining("recente 2"),
    ]);
  });

  it("shows the Chats and Mensagens tabs on a narrow screen, and edit and delete only to the chat's owner", async () => {
    mockFetch({ "GET /api/chats": { records: [aChat({ id: 1, title: "Minha" }), aChat({ id: 2, uuid: "x-2", title: "Alheia", ownerId: 3 })], hasMore: false } });
    renderWithApp(<ChatsPage />, { route: "/chats", path: "/chats/:id?", user: me, plan: aPlan() });
    const items = await screen.findAllByTestId("chat-item");
    // narrow screen (the test window): the panes are tabs
    expect(screen.getByRole("tab", { name: "Chats" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Mensagens" })).toBeInTheDocument();
    expect(within(items[0]!).getByRole("button", { name: "Editar conversa" })).toBeInTheDocument();
    expect(within(items[1]!).queryByRole("button", { name: "Editar conversa" })).toBeNull();
    expect(within(items[1]!).queryByRole("button", { name: "Excluir conversa" })).toBeNull();
  });
});

describe("internal chats popover", { timeout: 30_000 }, () => {
  it("counts the chats with unread messages and links each to /chats/{uuid}", async () => {
    const unread = aChat({ title: "Com novidade", lastMessage: "Chegou?", users: [{ userId: 2, unreads: 3, user: { id: 2, name: "Ana Admin" } }] });
    mockFetch({ "GET /api/chats": { records: [unread, aChat({ id: 8, uuid: "lida", title: "Lida" })], hasMore: false } });
    renderWithApp(<InternalChatsPopover />, { route: "/", user: me, plan: aPlan() });
    const button = await screen.findByRole("button", { name: "Chats internos" });
    await waitFor(() => expect(within(button).getByText("1")).toBeInTheDocument());
    await userEvent.click(button);
    const popover = await screen.findByTestId("internal-chats-popover");
    expect(within(popover).getByText("Com novidade")).toBeInTheDocument();
    expect(within(popover).queryByText("Lida")).toBeNull();
    await userEvent.click(within(popover).getByText("Com novidade"));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });

  it("is hidden and asks nothing when the plan has no internal chat", async () => {
    const { calls } = mockFetch({});
    renderWithApp(<InternalChatsPopover />, { route: "/", user: me, plan: aPlan({ useInternalChat: false }) });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("button", { name: "Chats internos" })).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
