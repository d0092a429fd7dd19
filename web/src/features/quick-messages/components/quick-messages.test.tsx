import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { QuickMessagesPage } from "./quick-messages-page";

const qm = (over: Partial<QuickMessageResponse>): QuickMessageResponse => ({
  id: 1,
  shortcode: "bomdia",
  message: "Bom dia!",
  geral: true,
  status: true,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  userId: 2,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const page = (records: QuickMessageResponse[]) => ({ records, count: records.length, hasMore: false });

describe("quick messages page", { timeout: 30_000 }, () => {
  it("lists shortcode, attachment and general flag; a user changes only their own private messages", async () => {
    mockFetch({
      "GET /api/quick-messages": page([qm({ id: 1, shortcode: "bomdia", geral: true, userId: 2 }), qm({ id: 2, shortcode: "meu", geral: false, userId: 5, mediaName: "tabela.pdf", isMedia: true })]),
    });
    renderWithApp(<QuickMessagesPage />, { route: "/quick-messages", user: aUser({ id: 5, profile: "user" }), plan: aPlan() });
    const rows = await screen.findAllByTestId("quick-message-row");
    expect(within(rows[0]!).getByText("Sem anexo")).toBeInTheDocument();
    expect(within(rows[0]!).getByLabelText("Geral")).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole("button", { name: "Editar" })).toBeNull();
    expect(within(rows[1]!).getByText("tabela.pdf")).toBeInTheDocument();
    expect(within(rows[1]!).getByRole("button", { name: "Editar" })).toBeInTheDocument();
  });

  it("requires a shortcode, then creates the message with the general flag (admin)", async () => {
    const { calls } = mockFetch({
      "GET /api/quick-messages": page([]),
      "POST /api/quick-messages": qm({ id: 9, shortcode: "frete" }),
    });
    renderWithApp(<QuickMessagesPage />, { route: "/quick-messages", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar resposta rápida" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByLabelText(/Atalho/), "frete");
    await userEvent.type(within(dialog).getByLabelText("Resposta"), "Frete grátis acima de R$ 100");
    await userEvent.click(within(dialog).getByLabelText("Geral"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({ shortcode: "frete", message: "Frete grátis acima de R$ 100", geral: true });
  });

  it("deletes a message and removes an attachment only after confirmation", async () => {
    const { calls } = mockFetch({
      "GET /api/quick-messages": page([qm({ id: 3, shortcode: "tabela", mediaName: "precos.pdf", mediaPath: "2/x/precos.pdf", isMedia: true })]),
      "DELETE /api/quick-messages/3": { message: "Quick message deleted" },
      "DELETE /api/quick-messages/3/media-upload": qm({ id: 3, shortcode: "tabela" }),
    });
    renderWithApp(<QuickMessagesPage />, { route: "/quick-messages", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("quick-message-row");

    await userEvent.click(within(row).getByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remover anexo" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(await screen.findByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/quick-messages/3/media-upload"))).toBe(true));
    await waitFor(() => expect(screen.queryByTestId("quick-message-attachment")).toBeNull());
    await waitFor(() => expect(screen.queryByRole("button", { name: "Confirmar" })).toBeNull());
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    await userEvent.click(within(await screen.findByTestId("quick-message-row")).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Excluir /tabela?")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/quick-messages/3"))).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/quick-messages/3"))).toBe(true));
  });
});
