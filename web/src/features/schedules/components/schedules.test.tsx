import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { SchedulesPage } from "./schedules-page";
import { toLocalInput } from "./schedule-form";

const now = new Date();
const midMonth = new Date(now.getFullYear(), now.getMonth(), 15, 10, 30);

const contact = (over: Partial<ContactView> = {}): ContactView => ({
  id: 7,
  companyId: 2,
  name: "Maria Cliente",
  number: "5511988887777",
  email: "",
  profilePicUrl: "",
  isGroup: false,
  lid: null,
  whatsappId: null,
  extraInfo: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const schedule = (over: Partial<ScheduleResponse> = {}): ScheduleResponse => ({
  id: 1,
  body: "Lembrete",
  sendAt: midMonth.toISOString(),
  sentAt: null,
  status: "PENDENTE",
  errorMessage: null,
  contactId: 7,
  contact: { id: 7, name: "Maria Cliente", number: "5511988887777" },
  whatsappId: null,
  userId: 2,
  user: { id: 2, name: "Ana Admin" },
  ticketId: null,
  mediaPath: null,
  mediaName: null,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const connections = [
  { id: 1, name: "Principal", status: "CONNECTED", isDefault: true },
  { id: 4, name: "Financeiro", status: "CONNECTED", isDefault: false },
];
const list = (schedules: ScheduleResponse[]) => ({ schedules, hasMore: false });
const posted = async (calls: Request[]) => {
  const post = calls.find((c) => c.method === "POST" && new URL(c.url).pathname === "/api/schedules");
  return post ? ((await post.json()) as Record<string, unknown>) : undefined;
};

describe("schedules page", { timeout: 60_000 }, () => {
  it("refuses to save without contact, message and a future time, then creates the schedule on the default connection", async () => {
    const { calls } = mockFetch({
      "GET /api/schedules/": list([]),
      "GET /api/whatsapp/": connections,
      "GET /api/contacts": { contacts: [contact()], count: 1, hasMore: false },
      "POST /api/schedules": schedule({ id: 9 }),
    });
    renderWithApp(<SchedulesPage />, { route: "/schedules", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Novo agendamento" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findAllByText("Obrigatório")).toHaveLength(3);
    expect(await posted(calls)).toBeUndefined();

    await userEvent.type(within(dialog).getByLabelText("Contato"), "Mar");
    await userEvent.click(await screen.findByRole("option", { name: /Maria Cliente/ }));
    await userEvent.type(within(dialog).getByLabelText(/Mensagem/), "Sua consulta é amanhã");
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(new Date(Date.now() - 3_600_000)) } });
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Escolha uma data e hora no futuro")).toBeInTheDocument();
    expect(within(dialog).queryByText("Obrigatório")).toBeNull();
    expect(await posted(calls)).toBeUndefined();

    const when = new Date(Date.now() + 2 * 86_400_000);
    when.setSeconds(0, 0);
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(when) } });
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(async () => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await posted(calls)).toEqual({ contactId: 7, body: "Sua consulta é amanhã", sendAt: when.toISOString(), whatsappId: null });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("opens the add dialog for ?contactId= with that contact chosen, and sends through the connection picked", async () => {
    const { calls } = mockFetch({
      "GET /api/schedules/": list([]),
      "GET /api/whatsapp/": connections,
      "GET /api/contacts/7": contact(),
      // the picker searches with the chosen contact's label once it is shown
      "GET /api/contacts": { contacts: [contact()], count: 1, hasMore: false },
      "POST /api/schedules": schedule({ id: 10, whatsappId: 4 }),
    });
    renderWithApp(<SchedulesPage />, { route: "/schedules?contactId=7", path: "/schedules", user: aUser({ profile: "user" }), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading", { name: "Novo agendamento" })).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText("Contato")).toHaveValue("Maria Cliente - 5511988887777"));
    expect(within(dialog).getByRole("combobox", { name: "Conexão" })).toHaveTextContent("Padrão");
    await userEvent.click(within(dialog).getByRole("combobox", { name: "Conexão" }));
    await userEvent.click(await screen.findByRole("option", { name: "Financeiro" }));
    await userEvent.type(within(dialog).getByLabelText(/Mensagem/), "Pelo financeiro");
    const when = new Date(Date.now() + 86_400_000);
    when.setSeconds(0, 0);
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(when) } });
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await posted(calls)).toMatchObject({ contactId: 7, whatsappId: 4, body: "Pelo financeiro" });
  });

  it("sends the attachment picked with a new schedule once it is saved", async () => {
    const { calls } = mockFetch({
      "GET /api/schedules/": list([]),
      "GET /api/whatsapp/": connections,
      "GET /api/contacts/7": contact(),
      "GET /api/contacts": { contacts: [contact()], count: 1, hasMore: false },
      "POST /api/schedules": schedule({ id: 11 }),
      "POST /api/schedules/11/media-upload": { ...schedule({ id: 11, mediaName: "boleto.pdf", mediaPath: "2/x/boleto.pdf" }), mensagem: "Arquivo Anexado" },
    });
    renderWithApp(<SchedulesPage />, { route: "/schedules?contactId=7", path: "/schedules", user: aUser(), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByLabelText("Contato")).toHaveValue("Maria Cliente - 5511988887777"));
    await userEvent.type(within(dialog).getByLabelText(/Mensagem/), "Segue o boleto");
    const when = new Date(Date.now() + 86_400_000);
    when.setSeconds(0, 0);
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(when) } });
    await userEvent.upload(within(dialog).getByTestId("schedule-file"), new File(["%PDF-1.4"], "boleto.pdf", { type: "application/pdf" }));
    expect(within(dialog).getByTestId("schedule-attachment")).toHaveTextContent("boleto.pdf");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => new URL(c.url).pathname === "/api/schedules/11/media-upload")).toBe(true));
    const upload = calls.find((c) => new URL(c.url).pathname === "/api/schedules/11/media-upload")!;
    expect(await ((await upload.formData()).get("file") as Blob).text()).toBe("%PDF-1.4");
    expect(calls.filter((c) => c.method === "POST").map((c) => new URL(c.url).pathname)).toEqual(["/api/schedules", "/api/schedules/11/media-upload"]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("places schedules in the calendar by contact name and lists them with their status and failure reason", async () => {
    mockFetch({
      "GET /api/schedules/": list([
        schedule({ id: 1, contact: { id: 7, name: "Maria Cliente", number: "1" } }),
        schedule({ id: 2, contact: { id: 8, name: "João Enviado", number: "2" }, status: "ENVIADA", sentAt: midMonth.toISOString() }),
        schedule({ id: 3, contact: { id: 9, name: "Rita Falhou", number: "3" }, status: "ERRO", errorMessage: "ERR_NO_WAPP_FOUND", whatsappId: 4 }),
      ]),
      "GET /api/whatsapp/": connections,
    });
    renderWithApp(<SchedulesPage />, { route: "/schedules", user: aUser(), plan: aPlan() });
    const calendar = await screen.findByTestId("schedules-calendar");
    await waitFor(() => expect(within(calendar).getAllByTestId("calendar-event")).toHaveLength(2));
    expect(within(calendar).getByText(/Maria Cliente/)).toBeInTheDocument();
    expect(within(calendar).getByText("+1 agendamento")).toBeInTheDocument();
    const rows = screen.getAllByTestId("schedule-row");
    expect(rows.map((r) => within(r).getByTestId("schedule-status").textContent)).toEqual(["Pendente", "Enviada", "Erro"]);
    expect(within(rows[2]!).getByText("Nenhuma conexão encontrada com este ID.")).toBeInTheDocument();
    expect(within(rows[2]!).getByText("Financeiro")).toBeInTheDocument();
    // a sent message is history: no edit
    expect(within(rows[1]!).queryByRole("button", { name: "Editar" })).toBeNull();
    expect(within(rows[0]!).getByRole("button", { name: "Editar" })).toBeInTheDocument();
  });

  it("deletes a schedule only after confirmation", async () => {
    const { calls } = mockFetch({
      "GET /api/schedules/": list([schedule({ id: 5 })]),
      "GET /api/whatsapp/": connections,
      "DELETE /api/schedules/5": { message: "Schedule deleted" },
    });
    renderWithApp(<SchedulesPage />, { route: "/schedules", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("schedule-row");
    await userEvent.click(within(row).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Excluir o agendamento para Maria Cliente?")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/schedules/5"))).toBe(true));
  });
});
