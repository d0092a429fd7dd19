import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { needsAttention, useConnectionsBadge } from "../hooks/use-connections-badge";
import { ConnectionsPage } from "./connections-page";

const wa = (id: number, status: WhatsappResponse["status"], over: Partial<WhatsappResponse> = {}): WhatsappResponse => ({
  id,
  name: `Conexão ${id}`,
  number: status === "CONNECTED" ? "5511987654321" : "",
  status,
  isDefault: id === 1,
  channel: "simulator",
  provider: "beta",
  greetingMessage: "",
  complationMessage: "",
  outOfHoursMessage: "",
  ratingMessage: "",
  expiresInactiveMessage: "",
  expiresTicket: 0,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  timeToTransfer: null,
  transferQueueId: null,
  promptId: null,
  integrationId: null,
  queueIds: [],
  queues: [],
  schedules: [],
  token: "t",
  qrcode: status === "qrcode" ? "SIM@1,2,abc" : "",
  retries: 0,
  disconnectReason: null,
  pairingCode: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-21T13:05:00.000Z",
  ...over,
});

const render = () => renderWithApp(<ConnectionsPage />, { route: "/connections", user: aUser(), plan: aPlan() });

describe("connections page", { timeout: 30_000 }, () => {
  it("shows each state's session buttons, the default flag and dd/MM/yy HH:mm", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(1, "CONNECTED"), wa(2, "qrcode"), wa(3, "DISCONNECTED"), wa(4, "OPENING"), wa(5, "TIMEOUT")], "GET /api/queue": [] });
    render();
    const rows = await screen.findAllByTestId("connection-row");
    expect(rows).toHaveLength(5);
    const [connected, qr, disconnected, opening, timeout] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(connected).getByRole("button", { name: "Desconectar" })).toBeEnabled();
    expect(within(connected).getByTestId("default-flag")).toBeInTheDocument();
    expect(within(connected).getByText("+55 (11) 98765-4321")).toBeInTheDocument();
    expect(within(qr).getByRole("button", { name: "QR CODE" })).toBeInTheDocument();
    expect(within(disconnected).getByRole("button", { name: "Tentar novamente" })).toBeInTheDocument();
    expect(within(disconnected).getByRole("button", { name: "Novo QR CODE" })).toBeInTheDocument();
    expect(within(opening).getByRole("button", { name: "Conectando" })).toBeDisabled();
    expect(within(timeout).getByRole("button", { name: "Desconectar" })).toBeInTheDocument();
    expect(within(qr).queryByTestId("default-flag")).toBeNull();
    expect(within(connected).getByText(/^\d{2}\/11\/26 \d{2}:05$/)).toBeInTheDocument();
  });

  it("says why a connection stopped (banned) in its status tooltip", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(3, "DISCONNECTED", { disconnectReason: "forbidden" })], "GET /api/queue": [] });
    render();
    const [row] = await screen.findAllByTestId("connection-row");
    await userEvent.hover(within(row!).getByTestId("connection-status"));
    expect(await screen.findByTestId("status-tooltip")).toHaveTextContent("O WhatsApp bloqueou ou baniu este número");
  });

  it("a number WhatsApp asked for a passkey says so, with what its owner can do (Cloud API among it), and offers a new QR", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(1, "CONNECTED"), wa(6, "PASSKEY_REQUIRED", { name: "Loja Centro" })], "GET /api/queue": [] });
    render();
    const notice = await screen.findByTestId("passkey-required");
    expect(notice).toHaveTextContent("O WhatsApp pediu uma chave de acesso (passkey) para conectar: Loja Centro");
    expect(notice).toHaveTextContent("API oficial do WhatsApp (Cloud API)");
    expect(notice).not.toHaveTextContent("Conexão 1");
    const [, walled] = await screen.findAllByTestId("connection-row");
    expect(within(walled!).getByTestId("connection-status")).toHaveAttribute("data-status", "PASSKEY_REQUIRED");
    expect(within(walled!).getByRole("button", { name: "Novo QR CODE" })).toBeInTheDocument();
    await userEvent.hover(within(walled!).getByTestId("connection-status"));
    expect(await screen.findByTestId("status-tooltip")).toHaveTextContent("O WhatsApp pediu uma chave de acesso (passkey)");
  });

  it("no passkey notice while no connection needs one", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(1, "CONNECTED"), wa(3, "DISCONNECTED")], "GET /api/queue": [] });
    render();
    await screen.findAllByTestId("connection-row");
    expect(screen.queryByTestId("passkey-required")).toBeNull();
  });

  it("says a connection waits for a session host with room (WAITING_CAPACITY), and it may be disconnected", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(6, "WAITING_CAPACITY")], "GET /api/queue": [] });
    render();
    const [row] = await screen.findAllByTestId("connection-row");
    expect(within(row!).getByRole("button", { name: "Desconectar" })).toBeInTheDocument();
    await userEvent.hover(within(row!).getByTestId("connection-status"));
    expect(await screen.findByTestId("status-tooltip")).toHaveTextContent("Aguardando capacidade");
    expect(screen.getByTestId("status-tooltip")).toHaveTextContent("Todos os servidores de sessão estão cheios");
  });

  it("opens the QR modal with its four steps", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(2, "qrcode")], "GET /api/queue": [] });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "QR CODE" }));
    expect(await screen.findAllByTestId("qr-step")).toHaveLength(4);
    expect(await screen.findByTestId("qr-image")).toHaveAttribute("data-qr", "SIM@1,2,abc");
  });

  it("links by phone number: a bad number is refused in place, a good one asks for a code, and the code is shown big", async () => {
    const { calls } = mockFetch({ "GET /api/whatsapp/": [wa(2, "qrcode")], "GET /api/queue": [], "POST /api/whatsappsession/2/pairingcode": { message: "ok" } });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "QR CODE" }));
    expect(await screen.findByTestId("pairing-number")).toHaveAttribute("placeholder", "ex.: +55 (11) 91234-5678");
    await userEvent.type(await screen.findByTestId("pairing-number"), "1234");
    await userEvent.click(screen.getByTestId("request-pairing-code"));
    expect(await screen.findByText(/Número inválido/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes("/pairingcode"))).toBe(false);
    await userEvent.clear(screen.getByTestId("pairing-number"));
    await userEvent.type(screen.getByTestId("pairing-number"), "(11) 94444-3333");
    await userEvent.click(screen.getByTestId("request-pairing-code"));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/api/whatsappsession/2/pairingcode"))).toBe(true));
    expect(await calls.find((c) => c.url.endsWith("/pairingcode"))!.json()).toEqual({ number: "5511944443333" });
  });

  it("shows a pairing code with its steps", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(2, "qrcode", { pairingCode: "ABCD2345" })], "GET /api/queue": [] });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "QR CODE" }));
    expect(await screen.findByTestId("pairing-code")).toHaveTextContent("ABCD-2345");
    expect(screen.getAllByTestId("pairing-step")).toHaveLength(4);
  });

  it("session buttons call /whatsappsession with POST, PUT and DELETE", async () => {
    const { calls } = mockFetch({
      "GET /api/whatsapp/": [wa(3, "DISCONNECTED"), wa(1, "CONNECTED")],
      "GET /api/queue": [],
      "POST /api/whatsappsession/3": { message: "ok" },
      "PUT /api/whatsappsession/3": { message: "ok" },
      "DELETE /api/whatsappsession/1": { message: "ok" },
    });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "Tentar novamente" }));
    await userEvent.click(screen.getByRole("button", { name: "Desconectar" }));
    const confirm = await screen.findByRole("dialog");
    await userEvent.click(within(confirm).getAllByRole("button").at(-1)!);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await userEvent.click(screen.getByRole("button", { name: "Novo QR CODE" }));
    await waitFor(() => expect(calls.filter((c) => c.url.includes("/whatsappsession/")).map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(["POST /api/whatsappsession/3", "DELETE /api/whatsappsession/1", "PUT /api/whatsappsession/3"]));
    expect(await screen.findByTestId("qr-dialog")).toBeInTheDocument();
  });

  it("restart warns 'Aguarde... reiniciando...'", async () => {
    const { calls } = mockFetch({ "GET /api/whatsapp/": [wa(1, "CONNECTED")], "GET /api/queue": [], "POST /api/whatsapp-restart/": { message: "ok" } });
    render();
    await userEvent.click(await screen.findByTestId("restart-connections"));
    expect(await screen.findByText("Aguarde... reiniciando...")).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.url.endsWith("/api/whatsapp-restart/"))).toBe(true));
  });

  it("the add modal has the five tabs and the spec's defaults, validates the name and posts", async () => {
    const { calls } = mockFetch({
      "GET /api/whatsapp/": [],
      "GET /api/queue": [],
      "GET /api/prompt": reply(404, { error: "ERR_NOT_FOUND" }),
      "GET /api/queueIntegration": reply(404, { error: "ERR_NOT_FOUND" }),
      "POST /api/whatsapp": (req: Request) => req.json().then((b) => reply(200, wa(9, "OPENING", { name: (b as { name: string }).name }))),
    });
    render();
    await userEvent.click(await screen.findByTestId("add-connection"));
    for (const tab of ["Geral", "Mensagens", "Avaliações", "Integrações", "Horários de atendimento"]) expect(screen.getByRole("tab", { name: tab })).toBeInTheDocument();
    await userEvent.type(screen.getByTestId("field-name"), "A");
    await userEvent.click(screen.getByTestId("save-whatsapp"));
    expect(await screen.findByText(/curto/i)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("tab", { name: "Avaliações" }));
    expect(screen.getByLabelText("Enviar bot x vezes")).toHaveValue(3);
    expect(screen.getByLabelText("Intervalo em minutos entre envio de bot")).toHaveValue(0);
    await userEvent.click(screen.getByRole("tab", { name: "Geral" }));
    await userEvent.type(screen.getByTestId("field-name"), "lfa");
    await userEvent.click(screen.getByTestId("save-whatsapp"));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && new URL(c.url).pathname === "/api/whatsapp")).toBe(true));
    const post = calls.find((c) => c.method === "POST" && new URL(c.url).pathname === "/api/whatsapp")!;
    expect(await post.json()).toMatchObject({ name: "Alfa", maxUseBotQueues: 3, timeUseBotQueues: 0, expiresTicket: 0, provider: "beta" });
  });
});

describe("connections badge", () => {
  it("is wanted for every state but CONNECTED", () => {
    expect(needsAttention([{ status: "CONNECTED" }])).toBe(false);
    for (const s of ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING", "WAITING_CAPACITY"] as const) expect(needsAttention([{ status: "CONNECTED" }, { status: s }])).toBe(true);
  });

  it("shows 2000 ms after a connection needs attention, not before", async () => {
    mockFetch({ "GET /api/whatsapp/": [wa(1, "CONNECTED"), wa(2, "qrcode")] });
    const Probe = () => <span data-testid="badge">{String(useConnectionsBadge())}</span>;
    const started = Date.now();
    renderWithApp(<Probe />, { route: "/", user: aUser(), plan: aPlan() });
    await waitFor(() => expect(screen.getByTestId("badge")).toHaveTextContent("true"), { timeout: 5_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  });
});
