import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { CampaignDialog } from "./campaign-dialog";
import { CampaignsPage } from "./campaigns-page";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const campaign = (over: Partial<CampaignView>): CampaignView => ({
  id: 1,
  companyId: 2,
  name: "Black Friday",
  message1: "Olá {nome}",
  message2: "",
  message3: "",
  message4: "",
  message5: "",
  confirmationMessage1: "Quer receber?",
  confirmationMessage2: "",
  confirmationMessage3: "",
  confirmationMessage4: "",
  confirmationMessage5: "",
  status: "INATIVA",
  confirmation: false,
  scheduledAt: null,
  completedAt: null,
  whatsappId: 1,
  contactListId: 3,
  tagListId: "Nenhuma",
  fileListId: null,
  mediaPath: null,
  mediaName: null,
  contactList: { id: 3, name: "Clientes" },
  whatsapp: { id: 1, name: "Loja" },
  counts: { valid: 0, delivered: 0, failed: 0, confirmationRequested: 0, confirmed: 0, progress: 0 },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const pickers = { "GET /api/contact-lists/list": [{ id: 3, name: "Clientes" }], "GET /api/whatsapp/": [{ id: 1, name: "Loja" }] };
const openDialog = (record: CampaignView) => {
  mockFetch(pickers);
  renderWithApp(<CampaignDialog record={record} onClose={() => {}} now={() => NOW} />, { route: "/campaigns", user: aUser(), plan: aPlan() });
  return screen.findByRole("dialog");
};
const inMinutes = (m: number) => new Date(NOW.getTime() + m * 60_000).toISOString();

describe("campaigns page and dialog", { timeout: 30_000 }, () => {
  it("lists campaigns with their status label and the actions of their status", async () => {
    mockFetch({
      "GET /api/campaigns/": {
        records: [campaign({ id: 1, name: "Rodando", status: "EM_ANDAMENTO" }), campaign({ id: 2, name: "Parada", status: "CANCELADA" })],
        hasMore: false,
      },
    });
    renderWithApp(<CampaignsPage />, { route: "/campaigns", user: aUser(), plan: aPlan() });
    const rows = await screen.findAllByTestId("campaign-row");
    expect(within(rows[0]!).getByText("Em Andamento")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Clientes")).toBeInTheDocument();
    expect(within(rows[0]!).getByRole("button", { name: "Parar campanha" })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole("button", { name: "Reiniciar campanha" })).toBeNull();
    expect(within(rows[1]!).getByText("Cancelada")).toBeInTheDocument();
    expect(within(rows[1]!).getByRole("button", { name: "Reiniciar campanha" })).toBeInTheDocument();
  });

  it("requires a name of 2 to 50 characters before saving", async () => {
    const { calls } = mockFetch({
      ...pickers,
      "GET /api/campaigns/": { records: [], hasMore: false },
      "POST /api/campaigns": campaign({ id: 9, name: "Natal" }),
    });
    renderWithApp(<CampaignsPage />, { route: "/campaigns", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Nova campanha" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Nome/), "N");
    expect(await within(dialog).findByText("Muito curto!")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.type(within(dialog).getByLabelText(/Nome/), "atal");
    await userEvent.type(within(dialog).getByLabelText("Mensagem 1"), "Feliz natal {{nome}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toMatchObject({ name: "Natal", message1: "Feliz natal {nome}", scheduledAt: null, tagListId: "Nenhuma" });
    expect(await screen.findByText("Campanha salva com sucesso.")).toBeInTheDocument();
  });

  it("shows each variant's confirmation message only when confirmation is on", async () => {
    const dialog = await openDialog(campaign({}));
    expect(within(dialog).queryByLabelText("Mensagem de confirmação 1")).toBeNull();
    await userEvent.click(within(dialog).getByLabelText("Confirmação"));
    expect(within(dialog).getByLabelText("Mensagem de confirmação 1")).toHaveValue("Quer receber?");
    await userEvent.click(within(dialog).getByRole("tab", { name: "Msg. 2" }));
    expect(within(dialog).getByLabelText("Mensagem 2")).toHaveValue("");
  });

  it("is editable when PROGRAMADA more than an hour ahead", async () => {
    const dialog = await openDialog(campaign({ status: "PROGRAMADA", scheduledAt: inMinutes(90) }));
    expect(within(dialog).getByLabelText(/Nome/)).toBeEnabled();
    expect(within(dialog).getByRole("button", { name: "Salvar" })).toBeInTheDocument();
  });

  it("is read-only when PROGRAMADA within the hour, running or finished", async () => {
    for (const over of [{ status: "PROGRAMADA" as const, scheduledAt: inMinutes(30) }, { status: "EM_ANDAMENTO" as const }, { status: "FINALIZADA" as const }]) {
      const dialog = await openDialog(campaign(over));
      expect(within(dialog).getByText("Esta campanha não pode mais ser editada.")).toBeInTheDocument();
      expect(within(dialog).getByLabelText(/Nome/)).toBeDisabled();
      expect(within(dialog).getByLabelText("Mensagem 1")).toBeDisabled();
      expect(within(dialog).queryByRole("button", { name: "Salvar" })).toBeNull();
      expect(within(dialog).queryByRole("button", { name: "Anexar arquivo" })).toBeNull();
      cleanup();
    }
  });

  it("lets a CANCELADA campaign change only its messages, and remove its attachment", async () => {
    const { calls } = mockFetch({
      ...pickers,
      "PUT /api/campaigns/1": (req: Request) => req.json().then((b) => reply(200, campaign({ ...(b as object), status: "CANCELADA" }))),
      "DELETE /api/campaigns/1/media-upload": campaign({ status: "CANCELADA" }),
    });
    renderWithApp(<CampaignDialog record={campaign({ status: "CANCELADA", mediaName: "folheto.pdf", mediaPath: "2/x/folheto.pdf" })} onClose={() => {}} now={() => NOW} />, {
      route: "/campaigns",
      user: aUser(),
      plan: aPlan(),
    });
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Campanha cancelada: apenas as mensagens podem ser alteradas.")).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Nome/)).toBeDisabled();
    expect(within(dialog).getByLabelText("Mensagem 1")).toBeEnabled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Remover anexo" }));
    await waitFor(() => expect(within(dialog).queryByText("folheto.pdf")).toBeNull());
    await userEvent.clear(within(dialog).getByLabelText("Mensagem 1"));
    await userEvent.type(within(dialog).getByLabelText("Mensagem 1"), "Nova oferta");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(await calls.find((c) => c.method === "PUT")!.json()).toMatchObject({ name: "Black Friday", message1: "Nova oferta" });
  });
});
