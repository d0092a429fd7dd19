import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aMessage, aTicket } from "../../tickets/testing/ticket-fixtures";
import { MessagesList } from "./messages-list";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>window.__xss = 1</script></svg>');
const VCARD = "BEGIN:VCARD\nVERSION:3.0\nN:;Pedro;;;\nFN:Pedro Souza\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD";
const messages = [
  aMessage({ id: "loc", mediaType: "locationMessage", body: "https://maps.example/static.png|https://maps.google.com/?q=-23.5,-46.6|Av. Paulista, 1000" }),
  aMessage({ id: "card", mediaType: "vcard", body: VCARD, createdAt: "2026-05-10T12:01:00.000Z" }),
  aMessage({ id: "img", mediaType: "image", mediaUrl: "/api/media/c2/img.png", mediaName: "foto.png", body: "foto.png", createdAt: "2026-05-10T12:02:00.000Z" }),
  aMessage({ id: "doc", mediaType: "application", mediaUrl: "/api/media/c2/nota.pdf", mediaName: "nota.pdf", body: "nota.pdf", createdAt: "2026-05-10T12:03:00.000Z" }),
];

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => "blob:media");
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

describe("message types", { timeout: 30_000 }, () => {
  it("shows location and vcard cards and fetches media with the auth header for download", async () => {
    const { calls } = mockFetch({
      "GET /api/messages/1": { messages, ticket: aTicket({ id: 1 }), count: 4, hasMore: false },
      "GET /api/media/c2/img.png": () => new Response(PNG, { status: 200, headers: { "content-type": "image/png" } }),
      "GET /api/media/c2/nota.pdf": () => new Response(new TextEncoder().encode("%PDF-1.4"), { status: 200, headers: { "content-type": "application/pdf" } }),
      "GET /api/contacts": { contacts: [{ id: 30, companyId: 2, name: "Pedro Souza", number: "5511977776666", email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: null, extraInfo: [], createdAt: "", updatedAt: "" }], count: 1, hasMore: false },
      "GET /api/queue": [],
      "GET /api/whatsapp/": [],
    });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    const location = await screen.findByTestId("location-card");
    expect(within(location).getByText("Av. Paulista, 1000")).toBeInTheDocument();
    expect(within(location).getByRole("link", { name: "Abrir no mapa" })).toHaveAttribute("href", "https://maps.google.com/?q=-23.5,-46.6");
    const card = screen.getByTestId("vcard-card");
    expect(card).toHaveTextContent("Pedro Souza");
    expect(card).toHaveTextContent("5511977776666");
    expect(await screen.findByTestId("message-image")).toHaveAttribute("src", "blob:media");
    // the object URL holds what the bytes are: a PNG as image/png, the PDF as a file to save
    const blobs = vi.mocked(URL.createObjectURL).mock.calls.map(([b]) => (b as Blob).type);
    expect(blobs).toEqual(expect.arrayContaining(["image/png", "application/octet-stream"]));
    const doc = await screen.findByTestId("message-document");
    expect(within(doc).getByRole("link", { name: "Baixar" })).toHaveAttribute("download", "nota.pdf");
    const media = calls.filter((c) => c.url.includes("/api/media/"));
    expect(media.every((c) => c.headers.get("authorization") === "Bearer test-token")).toBe(true);
    await userEvent.click(within(card).getByRole("button", { name: "Conversar" }));
    expect(await screen.findByText("Novo atendimento")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Pesquisar contato" })).toHaveValue("Pedro Souza - 5511977776666"));
  });

  it("an image opens in an in-app viewer, not a new tab; an 'image' whose bytes are an SVG is only offered as a download", async () => {
    const open = vi.spyOn(window, "open").mockImplementation(() => null);
    mockFetch({
      "GET /api/messages/1": {
        messages: [
          aMessage({ id: "img", mediaType: "image", mediaUrl: "/api/media/c2/img.png", mediaName: "foto.png", body: "" }),
          aMessage({ id: "svg", mediaType: "image", mediaUrl: "/api/media/c2/evil.png", mediaName: "evil.png", body: "", createdAt: "2026-05-10T12:05:00.000Z" }),
        ],
        ticket: aTicket({ id: 1 }),
        count: 2,
        hasMore: false,
      },
      "GET /api/media/c2/img.png": () => new Response(PNG, { status: 200, headers: { "content-type": "image/png" } }),
      // a server that still labels it an image: the browser decides by the bytes
      "GET /api/media/c2/evil.png": () => new Response(SVG, { status: 200, headers: { "content-type": "image/svg+xml" } }),
    });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    const images = await screen.findAllByTestId("message-image");
    expect(images).toHaveLength(1);
    expect(images[0]!.closest("a")).toBeNull();
    const evil = await screen.findByTestId("message-document");
    expect(within(evil).getByRole("link", { name: "Baixar" })).toHaveAttribute("download", "evil.png");
    const types = vi.mocked(URL.createObjectURL).mock.calls.map(([b]) => (b as Blob).type);
    expect(types).not.toContain("image/svg+xml");
    expect(types.filter((t) => t === "application/octet-stream")).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "foto.png" }));
    expect(await screen.findByTestId("media-viewer-image")).toHaveAttribute("src", "blob:media");
    expect(open).not.toHaveBeenCalled();
  });

  it("loads the previous page when scrolled near the top and shows it above", async () => {
    const { calls } = mockFetch({
      "GET /api/messages/1": (req: Request) =>
        new URL(req.url).searchParams.get("pageNumber") === "2"
          ? { messages: [aMessage({ id: "old", body: "mensagem antiga", createdAt: "2026-05-01T10:00:00.000Z" })], ticket: aTicket({ id: 1 }), count: 1, hasMore: false }
          : { messages: [aMessage({ id: "new", body: "mensagem nova" })], ticket: aTicket({ id: 1 }), count: 1, hasMore: true },
    });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    const list = await screen.findByTestId("messages-list");
    await within(list).findByText("mensagem nova");
    fireEvent.scroll(list, { target: { scrollTop: 10 } });
    await within(list).findByText("mensagem antiga");
    const texts = within(list).getAllByTestId("message").map((el) => el.textContent ?? "");
    expect(texts[0]).toContain("mensagem antiga");
    expect(calls.filter((c) => c.url.includes("pageNumber=2"))).toHaveLength(1);
  });

  it("says why a media message has no file when it was over the size limit", async () => {
    mockFetch({
      "GET /api/messages/1": {
        messages: [aMessage({ id: "big", mediaType: "application", body: "enorme.zip", error: "ERR_WAPP_MEDIA_TOO_LARGE" }), aMessage({ id: "failed", body: "não foi", error: "ERR_SENDING_WAPP_MSG", createdAt: "2026-05-10T12:05:00.000Z" })],
        ticket: aTicket({ id: 1 }),
        count: 2,
        hasMore: false,
      },
      "GET /api/queue": [],
      "GET /api/whatsapp/": [],
    });
    renderWithApp(<MessagesList ticketId={1} onReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    expect(await screen.findByText("Mídia acima do limite de 64 MB: não foi transferida.")).toBeInTheDocument();
    expect(screen.getByText("Falha no envio")).toBeInTheDocument();
  });
});
