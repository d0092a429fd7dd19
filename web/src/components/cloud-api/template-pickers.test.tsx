import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../testing/fetch-mock";
import { aPlan, aUser } from "../../testing/fixtures";
import { renderWithApp } from "../../testing/render";
import { aTicket } from "../../features/inbox/tickets/testing/ticket-fixtures";
import { TicketsPage } from "../../features/inbox/tickets/components/tickets-page";
import { TicketCard } from "../../features/inbox/tickets/components/ticket-card";
import { CampaignDialog } from "../../features/campaigns/components/campaign-dialog";

/**
 * The template pickers of issue 12: in the composer of a Cloud API ticket while its 24-hour window is still open
 * (not only once it closed), and in the campaign dialog, where a Cloud API connection takes an approved template
 * instead of the messages, its variables typed or taken from the contact as campaign placeholders.
 */
const tpl = (name: string, status: string, body: string) => ({
  id: name,
  name,
  language: "pt_BR",
  category: "MARKETING",
  status,
  header: null,
  body,
  footer: null,
  buttons: [],
  whatsappId: 5,
  syncedAt: "2026-11-24T00:00:00.000Z",
});
const templates = [tpl("promo", "APPROVED", "Oi {{1}}, hoje tem {{2}}!"), tpl("promo_nova", "PENDING", "Novidade {{1}}")];
const chooseFromContact = async (part: string, name: string, option: string) => {
  await userEvent.click(within(screen.getByTestId(`template-from-contact-${part}-${name}`)).getByRole("combobox"));
  await userEvent.click(await screen.findByRole("option", { name: option }));
};

describe("the composer's template picker on a Cloud API ticket", { timeout: 30_000 }, () => {
  const cloudTicket = aTicket({ id: 7, uuid: "uuid-7", whatsappId: 5, whatsapp: { id: 5, name: "Oficial", status: "CONNECTED", provider: "cloudapi" } as never });
  const routes = (window: unknown) => ({
    "GET /api/tickets": { tickets: [], count: 0, hasMore: false },
    "GET /api/tags/list": [],
    "GET /api/queue": [],
    "GET /api/whatsapp/": [],
    "GET /api/users/list": [],
    "GET /api/quick-messages/list": [],
    "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false },
    "GET /api/tickets/u/uuid-7": cloudTicket,
    "GET /api/messages/7": { messages: [], ticket: cloudTicket, count: 0, hasMore: false },
    "GET /api/cloud-api/tickets/7/window": window,
    "GET /api/cloud-api/5/templates": templates,
  });

  it("is offered beside free text while the window is open: approved templates, variables from the contact, preview, sent as a template", async () => {
    const closesAt = new Date(Date.now() + 5 * 3600_000).toISOString();
    const { calls } = mockFetch({
      ...routes({ kind: "open", closesAt, remainingMs: 5 * 3600_000, closingSoon: false }),
      "POST /api/messages/7": reply(201, { id: "M1", body: "Oi Maria Cliente, hoje tem frete grátis!", fromMe: true, ack: 0, ticketId: 7, mediaType: "chat", createdAt: new Date().toISOString() }),
    });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-7", path: "/tickets/:ticketId?", user: aUser(), plan: aPlan() });
    // the free-text composer stays, with the template button
    expect(await screen.findByTestId("composer-input")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("reply-window")).toHaveAttribute("data-state", "open"));
    await userEvent.click(screen.getByTestId("composer-template-button"));
    await userEvent.click(await screen.findByTestId("template-promo"));
    expect(screen.getByTestId("template-promo_nova")).toHaveAttribute("aria-disabled", "true");
    await chooseFromContact("body", "1", "Nome");
    await userEvent.type(screen.getByTestId("template-var-body-2"), "frete grátis");
    expect(screen.getByTestId("template-preview")).toHaveTextContent("Oi Maria Cliente, hoje tem frete grátis!");
    await userEvent.click(screen.getByTestId("template-send"));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toMatchObject({
      template: { name: "promo", language: "pt_BR", values: { header: {}, body: { "1": "Maria Cliente", "2": "frete grátis" } } },
    });
  });

  it("a QR ticket has no template button", async () => {
    const qr = aTicket({ id: 8, uuid: "uuid-8" });
    mockFetch({ ...routes({ kind: "none" }), "GET /api/tickets/u/uuid-8": qr, "GET /api/messages/8": { messages: [], ticket: qr, count: 0, hasMore: false } });
    renderWithApp(<TicketsPage />, { route: "/tickets/uuid-8", path: "/tickets/:ticketId?", user: aUser(), plan: aPlan() });
    expect(await screen.findByTestId("composer-input")).toBeInTheDocument();
    expect(screen.queryByTestId("composer-template-button")).toBeNull();
  });
});

describe("the campaign dialog on a Cloud API connection", { timeout: 30_000 }, () => {
  it("replaces the messages with an approved template whose variables take campaign placeholders, and saves it", async () => {
    const { calls } = mockFetch({
      "GET /api/contact-lists/list": [{ id: 3, name: "Clientes" }],
      "GET /api/whatsapp/": [
        { id: 1, name: "Loja", provider: "beta" },
        { id: 5, name: "Oficial", provider: "cloudapi" },
      ],
      "GET /api/cloud-api/5/templates": templates,
      "POST /api/campaigns": (req: Request) => req.json().then((b) => reply(200, { id: 9, ...(b as object) })),
    });
    renderWithApp(<CampaignDialog record={null} onClose={() => {}} />, { route: "/campaigns", user: aUser(), plan: aPlan() });
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText(/Nome/), "Promo oficial");
    // a QR connection: the messages
    expect(within(dialog).getByLabelText(/Mensagem 1/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText(/Conexão/));
    await userEvent.click(await screen.findByRole("option", { name: "Oficial" }));
    expect(within(dialog).queryByLabelText(/Mensagem 1/)).toBeNull();
    expect(within(dialog).getByTestId("campaign-template")).toHaveTextContent("Nenhum modelo escolhido");
    await userEvent.click(within(dialog).getByTestId("campaign-template-choose"));
    await userEvent.click(await screen.findByTestId("template-promo"));
    await chooseFromContact("body", "1", "Nome");
    expect(screen.getByTestId("template-var-body-1")).toHaveValue("{nome}");
    await userEvent.type(screen.getByTestId("template-var-body-2"), "frete grátis");
    await userEvent.click(screen.getByTestId("template-send"));
    await waitFor(() => expect(screen.getByTestId("campaign-template-preview")).toHaveTextContent("Oi {nome}, hoje tem frete grátis!"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toMatchObject({
      name: "Promo oficial",
      whatsappId: 5,
      confirmation: false,
      message1: "",
      template: { name: "promo", language: "pt_BR", values: { header: {}, body: { "1": "{nome}", "2": "frete grátis" } } },
    });
  });
});

describe("ticket cards show the connection and its kind", { timeout: 30_000 }, () => {
  it("a QR ticket and a Cloud API ticket side by side: each card names its connection, marked QR or official API", async () => {
    const noop = () => undefined;
    mockFetch({});
    const qr = aTicket({ id: 1, whatsapp: { id: 1, name: "QR Loja", status: "CONNECTED", provider: "beta" } as never });
    const cloud = aTicket({ id: 2, whatsappId: 5, whatsapp: { id: 5, name: "Oficial", status: "CONNECTED", provider: "cloudapi" } as never });
    renderWithApp(
      <>
        {[qr, cloud].map((ticket) => (
          <TicketCard key={ticket.id} ticket={ticket} selected={false} onOpen={noop} onAccept={noop} onClose={noop} onTransfer={noop} onReopen={noop} />
        ))}
      </>,
      { route: "/tickets", user: aUser(), plan: aPlan() },
    );
    const chips = await screen.findAllByTestId("ticket-connection");
    expect(chips.map((c) => [c.textContent, c.getAttribute("data-provider"), c.getAttribute("title")])).toEqual([
      ["QR Loja", "beta", "WhatsApp por QR code"],
      ["Oficial", "cloudapi", "API oficial do WhatsApp (Cloud API)"],
    ]);
  });
});
