import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { QueueIntegrationResponse } from "@atende/shared/contracts/http/queue-integrations";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { QueueIntegrationsPage } from "./queue-integrations-page";

const anIntegration = (over: Partial<QueueIntegrationResponse> = {}): QueueIntegrationResponse => ({
  id: 3,
  name: "Robô de vendas",
  type: "typebot",
  projectName: "Robô de vendas",
  jsonContent: "",
  language: null,
  urlN8N: "https://typebot.exemplo.com",
  typebotSlug: "vendas",
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: "",
  typebotKeywordRestart: "",
  typebotUnknownMessage: "",
  typebotRestartMessage: "",
  hasWebhookSecret: false,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const page = (items: QueueIntegrationResponse[], hasMore = false) => ({ queueIntegrations: items, hasMore });
const open = () => renderWithApp(<QueueIntegrationsPage />, { route: "/queue-integration", user: aUser(), plan: aPlan() });
const fill = async (field: HTMLElement, text: string) => {
  await userEvent.click(field);
  await userEvent.paste(text);
};
const chooseType = async (dialog: HTMLElement, label: string) => {
  await userEvent.click(within(dialog).getByRole("combobox", { name: /Tipo/ }));
  await userEvent.click(await screen.findByRole("option", { name: label }));
};
const labels = (dialog: HTMLElement) => within(dialog).queryAllByRole("textbox").map((el) => el.getAttribute("id"));

describe("queue integrations page", { timeout: 60_000 }, () => {
  it("shows the count of loaded items, a type logo, id and name; delete asks in a dialog titled with the name", async () => {
    const { calls } = mockFetch({
      "GET /api/queueIntegration/": page([anIntegration(), anIntegration({ id: 4, name: "Fluxo n8n", type: "n8n" })]),
      "DELETE /api/queueIntegration/4": { message: "Integration deleted" },
    });
    open();
    expect(await screen.findByRole("heading", { name: "Integrações (2)" })).toBeInTheDocument();
    const rows = screen.getAllByTestId("integration-row");
    expect(within(rows[0]!).getByRole("img", { name: "Typebot" })).toBeInTheDocument();
    expect(within(rows[1]!).getByRole("img", { name: "N8N" })).toBeInTheDocument();
    expect(within(rows[1]!).getByText("4")).toBeInTheDocument();

    await userEvent.click(within(rows[1]!).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByRole("heading", { name: "Excluir Fluxo n8n?" })).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(screen.getAllByTestId("integration-row")).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("heading", { name: "Integrações (1)" })).toBeInTheDocument();
  });

  it("shows the fields of the chosen type: typebot by default, DialogFlow, N8N and WebHooks", async () => {
    mockFetch({ "GET /api/queueIntegration/": page([]) });
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar integração" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("combobox", { name: /Tipo/ })).toHaveTextContent("Typebot");
    for (const label of ["URL", "Typebot - Slug", "Tempo em minutos para expirar uma conversa", "Intervalo (ms) entre mensagens", "Palavra para finalizar o ticket"]) {
      expect(within(dialog).getByLabelText(new RegExp(`^${label.replace(/[()]/g, "\\$&")}`))).toBeInTheDocument();
    }
    expect(within(dialog).getByLabelText(/^Intervalo \(ms\)/)).toHaveValue(1000);
    expect(within(dialog).getByLabelText(/^Tempo em minutos/)).toHaveValue(1);
    expect(within(dialog).queryByLabelText(/Conteúdo JSON/)).toBeNull();

    await chooseType(dialog, "DialogFlow");
    expect(within(dialog).getByRole("combobox", { name: /Linguagem/ })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Nome do projeto/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Conteúdo JSON/)).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Testar bot" })).toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/^URL/)).toBeNull();

    for (const type of ["N8N", "WebHooks"]) {
      await chooseType(dialog, type);
      expect(within(dialog).getByLabelText(/^URL/)).toBeInTheDocument();
      expect(within(dialog).queryByLabelText(/Slug/)).toBeNull();
      expect(within(dialog).queryByRole("button", { name: "Testar bot" })).toBeNull();
      expect(labels(dialog)).toHaveLength(2);
    }
  });

  it("validates per type, saves with projectName = name, and comes back to its defaults", async () => {
    const { calls } = mockFetch({
      "GET /api/queueIntegration/": page([]),
      "POST /api/queueIntegration": async (req: Request) => reply(200, anIntegration({ id: 8, ...((await req.json()) as object) })),
    });
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar integração" }));
    let dialog = await screen.findByRole("dialog");
    await fill(within(dialog).getByLabelText(/^Nome/), "A");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Muito curto!")).toBeInTheDocument();
    expect(within(dialog).getAllByText("Obrigatório")).toHaveLength(2); // URL and slug
    await chooseType(dialog, "DialogFlow");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument(); // language
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await chooseType(dialog, "Typebot");
    await fill(within(dialog).getByLabelText(/^Nome/), "B Loja");
    await fill(within(dialog).getByLabelText(/^URL/), "https://typebot.loja.com");
    await fill(within(dialog).getByLabelText(/Slug/), "loja-v2");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toMatchObject({
      type: "typebot",
      name: "AB Loja",
      projectName: "AB Loja",
      urlN8N: "https://typebot.loja.com",
      typebotSlug: "loja-v2",
      typebotDelayMessage: 1000,
      typebotExpires: 1,
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByRole("heading", { name: "Integrações (1)" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Adicionar integração" }));
    dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("combobox", { name: /Tipo/ })).toHaveTextContent("Typebot");
    expect(within(dialog).getByLabelText(/^Nome/)).toHaveValue("");
    expect(within(dialog).getByLabelText(/^URL/)).toHaveValue("");
  });

  it("tests DialogFlow credentials and shows the server's refusal", async () => {
    const { calls } = mockFetch({
      "GET /api/queueIntegration/": page([]),
      "POST /api/queueIntegration/testSession": reply(400, { error: "ERR_DIALOGFLOW_INVALID_CREDENTIALS", data: { reason: "json" } }),
    });
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar integração" }));
    const dialog = await screen.findByRole("dialog");
    await chooseType(dialog, "DialogFlow");
    await userEvent.click(within(dialog).getByRole("button", { name: "Testar bot" }));
    expect(calls.some((c) => c.url.endsWith("/testSession"))).toBe(false);
    await userEvent.click(within(dialog).getByRole("combobox", { name: /Linguagem/ }));
    await userEvent.click(await screen.findByRole("option", { name: "Português" }));
    await fill(within(dialog).getByLabelText(/^Nome do projeto/), "agente-1");
    await fill(within(dialog).getByLabelText(/^Conteúdo JSON/), "{}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Testar bot" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/testSession"))).toBe(true));
    expect(await calls.find((c) => c.url.endsWith("/testSession"))!.json()).toEqual({ projectName: "agente-1", jsonContent: "{}", language: "pt-BR" });
    expect(await screen.findByText("O JSON não é uma chave de conta de serviço válida do projeto informado.")).toBeInTheDocument();
  });

  it("shows a new webhook's signing secret once, after saving, until Concluir; the list never holds it", async () => {
    const secret = `whsec_${"a".repeat(43)}`;
    const { calls } = mockFetch({
      "GET /api/queueIntegration/": page([]),
      "POST /api/queueIntegration": async (req: Request) => reply(200, { ...anIntegration({ id: 9, type: "webhook", hasWebhookSecret: true, ...((await req.json()) as object) }), webhookSecret: secret }),
    });
    const { queryClient } = open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar integração" }));
    const dialog = await screen.findByRole("dialog");
    await chooseType(dialog, "WebHooks");
    expect(within(dialog).getByText("O segredo é gerado ao salvar e mostrado uma única vez.")).toBeInTheDocument();
    await fill(within(dialog).getByLabelText(/^Nome/), "CRM");
    await fill(within(dialog).getByLabelText(/^URL/), "https://crm.exemplo.com/hook");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByTestId("webhook-secret")).toHaveValue(secret);
    expect(within(dialog).getByText(/não será mostrado de novo/)).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Adicionar" })).toBeNull();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
    expect(JSON.stringify(queryClient.getQueryCache().getAll().map((q) => q.state.data))).not.toContain(secret);
    await userEvent.click(within(dialog).getByRole("button", { name: "Concluir" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByText(secret)).toBeNull();
  });

  it("an existing webhook shows only that a secret is set; rotating (after confirming) shows the new one", async () => {
    const secret = `whsec_${"b".repeat(43)}`;
    const { calls } = mockFetch({
      "GET /api/queueIntegration/": page([anIntegration({ id: 5, name: "Gancho", type: "webhook", hasWebhookSecret: true, typebotSlug: "" })]),
      "POST /api/queueIntegration/5/rotate-secret": { webhookSecret: secret },
    });
    open();
    const row = await screen.findByTestId("integration-row");
    await userEvent.click(within(row).getByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(/Um segredo está configurado/)).toBeInTheDocument();
    expect(within(dialog).queryByTestId("webhook-secret")).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Girar segredo" }));
    expect(calls.some((c) => c.url.endsWith("/rotate-secret"))).toBe(false);
    expect(within(dialog).getByText("O segredo atual deixará de funcionar imediatamente.")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Gerar novo segredo" }));
    expect(await within(dialog).findByTestId("webhook-secret")).toHaveValue(secret);
    expect(calls.filter((c) => c.url.endsWith("/rotate-secret"))).toHaveLength(1);
  });

  it("the DialogFlow test shows what the agent answered", async () => {
    mockFetch({
      "GET /api/queueIntegration/": page([]),
      "POST /api/queueIntegration/testSession": { message: "DialogFlow session ok", answer: ["Olá! Como posso ajudar?"], intent: "Default Welcome Intent", endInteraction: false },
    });
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar integração" }));
    const dialog = await screen.findByRole("dialog");
    await chooseType(dialog, "DialogFlow");
    await userEvent.click(within(dialog).getByRole("combobox", { name: /Linguagem/ }));
    await userEvent.click(await screen.findByRole("option", { name: "Português" }));
    await fill(within(dialog).getByLabelText(/^Nome do projeto/), "agente-1");
    await fill(within(dialog).getByLabelText(/^Conteúdo JSON/), "{}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Testar bot" }));
    const answer = await within(dialog).findByTestId("dialogflow-test-answer");
    expect(answer).toHaveTextContent("Resposta do DialogFlow (Default Welcome Intent):");
    expect(answer).toHaveTextContent("Olá! Como posso ajudar?");
  });
});
