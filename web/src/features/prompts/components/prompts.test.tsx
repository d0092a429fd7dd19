import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { PromptResponse } from "@atende/shared/contracts/http/prompts";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { PromptsPage } from "./prompts-page";

const queues = [
  { id: 1, name: "Vendas", color: "#111111", greetingMessage: "", outOfHoursMessage: "", orderQueue: 1, integrationId: null, promptId: null, schedules: [], mediaPath: null, mediaName: null, companyId: 2 },
  { id: 2, name: "Suporte", color: "#222222", greetingMessage: "", outOfHoursMessage: "", orderQueue: 2, integrationId: null, promptId: null, schedules: [], mediaPath: null, mediaName: null, companyId: 2 },
];
const aPrompt = (over: Partial<PromptResponse> = {}): PromptResponse => ({
  id: 4,
  name: "Assistente",
  prompt: "Você é um atendente.",
  voice: "texto",
  voiceKey: "",
  voiceRegion: "",
  maxTokens: 250,
  temperature: 1,
  apiKey: "••••••••3456",
  queueId: 2,
  queue: { id: 2, name: "Suporte", color: "#222222" },
  maxMessages: 10,
  model: "",
  baseUrl: "",
  handoverKeywords: ["atendente", "humano"],
  monthlyTokenCap: 0,
  tokensThisMonth: 0,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
/** Types by pasting: this machine is slow and typing key by key is not what these tests are about. */
const fill = async (field: HTMLElement, text: string) => {
  await userEvent.click(field);
  await userEvent.paste(text);
};
const open = () => renderWithApp(<PromptsPage />, { route: "/prompts", user: aUser(), plan: aPlan() });

describe("prompts page", { timeout: 60_000 }, () => {
  it("lists name, queue and max tokens", async () => {
    mockFetch({ "GET /api/prompt": { prompts: [aPrompt(), aPrompt({ id: 5, name: "Órfão", queueId: null, queue: null })] } });
    open();
    const rows = await screen.findAllByTestId("prompt-row");
    expect(within(rows[0]!).getByText("Assistente")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Suporte")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("250")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Sem setor")).toBeInTheDocument();
  });

  it("asks for the queue ('Informe o setor') and the required fields, then creates with the spec's defaults", async () => {
    const { calls } = mockFetch({ "GET /api/prompt": { prompts: [] }, "GET /api/queue": queues, "POST /api/prompt": aPrompt({ id: 9 }) });
    open();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar prompt" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Informe o setor")).toBeInTheDocument();
    expect(within(dialog).getAllByText("Obrigatório").length).toBeGreaterThanOrEqual(3);
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    // defaults of spec 3 section 9
    expect(within(dialog).getByLabelText("Máximo de tokens na resposta")).toHaveValue(100);
    expect(within(dialog).getByLabelText("Temperatura")).toHaveValue(1);
    expect(within(dialog).getByLabelText("Máximo de mensagens no histórico")).toHaveValue(10);

    await fill(within(dialog).getByLabelText(/^Nome/), "Vendedor virtual");
    await fill(within(dialog).getByLabelText(/^Chave da API/), "sk-test-123");
    await fill(within(dialog).getByLabelText(/^Prompt/), "Você vende pães.");
    await userEvent.click(within(dialog).getByRole("combobox", { name: /Setor/ }));
    await userEvent.click(await screen.findByRole("option", { name: "Vendas" }));
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Voz" }));
    const voices = await screen.findAllByRole("option");
    expect(voices).toHaveLength(16);
    expect(voices.map((o) => o.textContent)).toEqual(expect.arrayContaining(["Texto (sem voz)", "pt-BR-FranciscaNeural", "pt-BR-AntonioNeural"]));
    await userEvent.click(screen.getByRole("option", { name: "pt-BR-AntonioNeural" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));

    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({
      name: "Vendedor virtual",
      prompt: "Você vende pães.",
      apiKey: "sk-test-123",
      queueId: 1,
      voice: "pt-BR-AntonioNeural",
      voiceKey: "",
      voiceRegion: "",
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      // issue 11: OpenAI's endpoint and default model, the default handover words, no cap
      model: "",
      baseUrl: "",
      handoverKeywords: "atendente, humano",
      monthlyTokenCap: 0,
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("edits without showing the saved key: an empty key field keeps it", async () => {
    const { calls } = mockFetch({ "GET /api/prompt": { prompts: [aPrompt()] }, "GET /api/queue": queues, "PUT /api/prompt/4": aPrompt({ name: "Assistente 2" }) });
    open();
    await userEvent.click(within(await screen.findByTestId("prompt-row")).getByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    const key = within(dialog).getByLabelText(/^Chave da API/);
    expect(key).toHaveValue("");
    expect(within(dialog).getByText("Chave salva: ••••••••3456. Deixe em branco para mantê-la.")).toBeInTheDocument();
    const name = within(dialog).getByLabelText(/^Nome/);
    await userEvent.clear(name);
    await fill(name, "Assistente 2");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    const body = (await calls.find((c) => c.method === "PUT")!.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: "Assistente 2", queueId: 2 });
    expect(body).not.toHaveProperty("apiKey");
  });

  it("deletes only after confirming", async () => {
    const { calls } = mockFetch({ "GET /api/prompt": { prompts: [aPrompt()] }, "DELETE /api/prompt/4": { message: "Prompt deleted" } });
    open();
    await userEvent.click(within(await screen.findByTestId("prompt-row")).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Excluir Assistente?")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE")).toBe(true));
  });
});
