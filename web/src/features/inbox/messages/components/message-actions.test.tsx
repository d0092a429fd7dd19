import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aMessage, aTicket } from "../../tickets/testing/ticket-fixtures";
import { Composer } from "./composer";
import { MessagesList } from "./messages-list";

const messages = [aMessage({ id: "theirs", body: "do cliente" }), aMessage({ id: "mine", fromMe: true, ack: 3, body: "minha", createdAt: "2026-05-10T12:01:00.000Z" })];
const routes = { "GET /api/messages/1": { messages, ticket: aTicket({ id: 1 }), count: 2, hasMore: false } };

const openMenu = async (id: string) => {
  const row = (await screen.findAllByTestId("message")).find((el) => el.dataset.messageId === id)!;
  await userEvent.click(within(row).getByRole("button", { name: "Opções da mensagem" }));
};

describe("message options", { timeout: 30_000 }, () => {
  it("offers edit and delete only on the user's own messages", async () => {
    mockFetch(routes);
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await openMenu("theirs");
    expect(screen.getByRole("menuitem", { name: "Responder" })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Reagir" })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Encaminhar" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: "Editar" })).toBeNull();
    expect(screen.queryByRole("menuitem", { name: "Apagar" })).toBeNull();
    await userEvent.keyboard("{Escape}");
    await openMenu("mine");
    expect(screen.getByRole("menuitem", { name: "Editar" })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Apagar" })).toBeInTheDocument();
  });

  it("edits an own message with the new body", async () => {
    const { calls } = mockFetch({ ...routes, "POST /api/messages/edit/mine": aMessage({ id: "mine", fromMe: true, body: "corrigida", isEdited: true, createdAt: "2026-05-10T12:01:00.000Z" }) });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await openMenu("mine");
    await userEvent.click(screen.getByRole("menuitem", { name: "Editar" }));
    const box = screen.getByLabelText("Editar mensagem", { selector: "textarea" });
    await userEvent.clear(box);
    await userEvent.type(box, "corrigida");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("corrigida")).toBeInTheDocument();
    expect(await calls.find((c) => c.method === "POST")?.json()).toMatchObject({ body: "corrigida" });
  });

  it("reacts with one of the 6 quick emojis", async () => {
    const { calls } = mockFetch({ ...routes, "POST /api/messages/theirs/reactions": {} });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await openMenu("theirs");
    await userEvent.click(screen.getByRole("menuitem", { name: "Reagir" }));
    const picker = await screen.findByTestId("reaction-picker");
    expect(within(picker).getAllByRole("button")).toHaveLength(7);
    await userEvent.click(within(picker).getByRole("button", { name: "❤️" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")?.json()).toEqual({ type: "❤️" });
  });

  it("forwarding with no message selected shows the not-a-message error", async () => {
    const { calls } = mockFetch({
      ...routes,
      "GET /api/contacts": { contacts: [{ id: 20, companyId: 2, name: "Pedro", number: "5511988887777", email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: null, extraInfo: [], createdAt: "", updatedAt: "" }], count: 1, hasMore: false },
    });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await openMenu("theirs");
    await userEvent.click(screen.getByRole("menuitem", { name: "Encaminhar" }));
    await userEvent.type(screen.getByLabelText("Pesquisar contato"), "Ped");
    await userEvent.click(await screen.findByRole("option", { name: /Pedro/ }));
    const list = screen.getByTestId("forward-messages");
    await userEvent.click(within(list).getByText("do cliente"));
    await userEvent.click(screen.getByTestId("forward-submit"));
    expect(await screen.findByText("Selecione pelo menos uma mensagem para encaminhar.")).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes("/message/forward"))).toBe(false);
  });
});

describe("composer", { timeout: 30_000 }, () => {
  it("suggests quick messages after '/' with labels cut at 35 characters and fills the text", async () => {
    mockFetch({ "GET /api/quick-messages/list": [{ id: 1, shortcode: "bomdia", message: "Bom dia! Como posso ajudar você hoje?" }], "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false } });
    renderWithApp(<Composer ticketId={1} status="open" replyTo={null} onCancelReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    const input = screen.getByTestId("composer-input");
    await userEvent.type(input, "/");
    expect(screen.queryByTestId("quick-suggestions")).toBeNull();
    await userEvent.type(input, "bom");
    const option = await screen.findByText("bomdia - Bom dia! Como posso ajudar...");
    await userEvent.click(option);
    expect(input).toHaveValue("Bom dia! Como posso ajudar você hoje?");
  });

  it("remembers the signature toggle (default on)", async () => {
    mockFetch({ "GET /api/quick-messages/list": [], "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false } });
    renderWithApp(<Composer ticketId={1} status="open" replyTo={null} onCancelReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    const toggle = screen.getByRole("switch", { name: "Assinar" });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    expect(localStorage.getItem("signOption")).toBe("false");
  });
});
