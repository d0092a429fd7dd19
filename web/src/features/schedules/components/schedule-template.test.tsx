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

/**
 * The schedule dialog on a Cloud API connection (issue 12, docs/adr/0042): an approved template instead of free text
 * (the default for a new schedule there), chosen in the template picker with its variables from the contact or
 * typed, the preview shown; free text still possible with a warning about the 24-hour window.
 */
const contact = (over: Partial<ContactView> = {}): ContactView => ({
  id: 7,
  companyId: 2,
  name: "Maria Cliente",
  number: "5511988887777",
  email: "maria@cliente.com",
  profilePicUrl: "",
  isGroup: false,
  lid: null,
  whatsappId: null,
  extraInfo: [],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const connections = [
  { id: 1, name: "Principal", status: "CONNECTED", isDefault: true, provider: "beta" },
  { id: 5, name: "Oficial", status: "CONNECTED", isDefault: false, provider: "cloudapi" },
];
const tpl = (name: string, status: string, body: string) => ({
  id: name,
  name,
  language: "pt_BR",
  category: "UTILITY",
  status,
  header: null,
  body,
  footer: null,
  buttons: [],
  whatsappId: 5,
  syncedAt: "2026-11-24T00:00:00.000Z",
});
const templates = [tpl("lembrete_consulta", "APPROVED", "Olá {{1}}, sua consulta é {{2}}."), tpl("promo_nova", "PENDING", "Novidade {{1}}")];
const schedule = (over: Partial<ScheduleResponse> = {}): ScheduleResponse => ({
  id: 1,
  body: "Lembrete",
  sendAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
  sentAt: null,
  status: "PENDENTE",
  errorMessage: null,
  contactId: 7,
  contact: { id: 7, name: "Maria Cliente", number: "5511988887777" },
  whatsappId: 5,
  userId: 2,
  user: { id: 2, name: "Ana Admin" },
  ticketId: null,
  mediaPath: null,
  mediaName: null,
  template: null,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const routes = (over: Record<string, unknown> = {}) => ({
  "GET /api/schedules/": { schedules: [], hasMore: false },
  "GET /api/whatsapp/": connections,
  "GET /api/contacts/7": contact(),
  "GET /api/contacts": { contacts: [contact()], count: 1, hasMore: false },
  "GET /api/cloud-api/5/templates": templates,
  ...over,
});
const sent = async (calls: Request[], method: string, path: string) => {
  const c = calls.find((x) => x.method === method && new URL(x.url).pathname === path);
  return c ? ((await c.json()) as Record<string, unknown>) : undefined;
};
const tomorrow = () => {
  const when = new Date(Date.now() + 86_400_000);
  when.setSeconds(0, 0);
  return when;
};
const pickConnection = async (dialog: HTMLElement, name: string) => {
  await userEvent.click(within(dialog).getByRole("combobox", { name: "Conexão" }));
  await userEvent.click(await screen.findByRole("option", { name }));
};

describe("the schedule dialog on a Cloud API connection", { timeout: 60_000 }, () => {
  it("offers the template picker (approved templates, variables from the contact or typed, preview) and saves the template on that connection", async () => {
    const { calls } = mockFetch(routes({ "POST /api/schedules": schedule({ id: 9 }) }));
    renderWithApp(<SchedulesPage />, { route: "/schedules?contactId=7", path: "/schedules", user: aUser(), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByLabelText("Contato")).toHaveValue("Maria Cliente - 5511988887777"));
    // the default connection is a QR one: free text and an attachment, no template
    expect(within(dialog).queryByTestId("schedule-kind")).toBeNull();
    expect(within(dialog).getByTestId("schedule-file")).toBeInTheDocument();
    await pickConnection(dialog, "Oficial");
    // a Cloud API connection: a template by default, no text and no attachment
    expect(within(dialog).getByRole("button", { name: "Modelo aprovado" })).toHaveAttribute("aria-pressed", "true");
    expect(within(dialog).queryByLabelText(/Mensagem/)).toBeNull();
    expect(within(dialog).queryByTestId("schedule-file")).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(tomorrow()) } });
    // no template chosen yet: refused in the form
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Escolha um modelo")).toBeInTheDocument();
    expect(await sent(calls, "POST", "/api/schedules")).toBeUndefined();

    await userEvent.click(within(dialog).getByTestId("schedule-template-choose"));
    await userEvent.click(await screen.findByTestId("template-lembrete_consulta"));
    expect(screen.getByTestId("template-promo_nova")).toHaveAttribute("aria-disabled", "true");
    // "from the contact" fills in the contact's own value (not a campaign placeholder)
    await userEvent.click(within(screen.getByTestId("template-from-contact-body-1")).getByRole("combobox"));
    await userEvent.click(await screen.findByRole("option", { name: "Nome" }));
    await userEvent.type(screen.getByTestId("template-var-body-2"), "amanhã às 9h");
    expect(screen.getByTestId("template-preview")).toHaveTextContent("Olá Maria Cliente, sua consulta é amanhã às 9h.");
    await userEvent.click(screen.getByTestId("template-send"));
    await waitFor(() => expect(within(dialog).getByTestId("schedule-template-preview")).toHaveTextContent("Olá Maria Cliente, sua consulta é amanhã às 9h."));

    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await sent(calls, "POST", "/api/schedules")).toMatchObject({
      contactId: 7,
      whatsappId: 5,
      template: { name: "lembrete_consulta", language: "pt_BR", values: { header: {}, body: { "1": "Maria Cliente", "2": "amanhã às 9h" } } },
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("takes free text on a Cloud API connection, warning that it needs the customer's 24-hour window", async () => {
    const { calls } = mockFetch(routes({ "POST /api/schedules": schedule({ id: 10 }) }));
    renderWithApp(<SchedulesPage />, { route: "/schedules?contactId=7", path: "/schedules", user: aUser(), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByLabelText("Contato")).toHaveValue("Maria Cliente - 5511988887777"));
    await pickConnection(dialog, "Oficial");
    await userEvent.click(within(dialog).getByRole("button", { name: "Texto livre" }));
    expect(within(dialog).getByText(/só é entregue se o cliente tiver escrito nas 24 horas/)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Mensagem/), "Até amanhã!");
    fireEvent.change(within(dialog).getByLabelText(/Data e hora do envio/), { target: { value: toLocalInput(tomorrow()) } });
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    const body = await sent(calls, "POST", "/api/schedules");
    expect(body).toMatchObject({ contactId: 7, whatsappId: 5, body: "Até amanhã!" });
    expect(body).not.toHaveProperty("template");
  });

  it("a new schedule for a contact who came through a Cloud API connection starts on that connection", async () => {
    mockFetch(routes({ "GET /api/contacts/7": contact({ whatsappId: 5 }), "GET /api/contacts": { contacts: [contact({ whatsappId: 5 })], count: 1, hasMore: false } }));
    renderWithApp(<SchedulesPage />, { route: "/schedules?contactId=7", path: "/schedules", user: aUser(), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByRole("combobox", { name: "Conexão" })).toHaveTextContent("Oficial"));
    expect(within(dialog).getByTestId("schedule-template")).toBeInTheDocument();
  });

  it("edits a template schedule back to free text: the template is cleared", async () => {
    // the page lists the shown month's schedules: a send time later this month, whatever today's date (3 days ahead
    // fell in the next month on the 29th)
    const soon = new Date(Date.now() + 3_600_000);
    const sendAt = (soon.getMonth() === new Date().getMonth() ? soon : new Date(Date.now() + 60_000)).toISOString();
    const record = schedule({ id: 3, sendAt, body: "Olá Maria, sua consulta é sexta.", template: { name: "lembrete_consulta", language: "pt_BR", values: { header: {}, body: { "1": "Maria", "2": "sexta" } } } });
    const { calls } = mockFetch(routes({ "GET /api/schedules/": { schedules: [record], hasMore: false }, "PUT /api/schedules/3": record }));
    renderWithApp(<SchedulesPage />, { route: "/schedules", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("schedule-row");
    expect(within(row).getByTestId("schedule-template-chip")).toHaveTextContent("Modelo");
    await userEvent.click(within(row).getByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByTestId("schedule-template-preview")).toHaveTextContent("Olá Maria, sua consulta é sexta."));
    await userEvent.click(within(dialog).getByRole("button", { name: "Texto livre" }));
    const message = within(dialog).getByLabelText(/Mensagem/);
    await userEvent.clear(message);
    await userEvent.type(message, "Consulta remarcada");
    await userEvent.click(within(dialog).getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(await sent(calls, "PUT", "/api/schedules/3")).toMatchObject({ body: "Consulta remarcada", whatsappId: 5, template: null });
  });
});
