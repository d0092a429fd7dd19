import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { emitRealtime, emitRealtimeReopen } from "../../../../testing/realtime";
import { renderWithApp } from "../../../../testing/render";
import { TicketNotes } from "../../ticket-notes/components/ticket-notes";
import { ContactDialog } from "./contact-dialog";
import { ContactsPage } from "./contacts-page";

const contact = (id: number, name: string) => ({ id, companyId: 2, name, number: `55119999900${id}`, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: null, extraInfo: [], createdAt: "", updatedAt: "" });

describe("contacts", { timeout: 30_000 }, () => {
  it("validates the contact form with the translated spec messages", async () => {
    const { calls } = mockFetch({});
    renderWithApp(<ContactDialog onClose={() => undefined} />, { route: "/contacts", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findAllByText("Obrigatório")).toHaveLength(2);
    await userEvent.type(screen.getByLabelText("Nome"), "A");
    await userEvent.type(screen.getByLabelText("Número do WhatsApp"), "123");
    await userEvent.type(screen.getByLabelText("E-mail"), "nope");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);
    expect(screen.getByText("E-mail inválido")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("searches from 3 characters and hides delete from attendants", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": (req: Request) => {
        const q = new URL(req.url).searchParams.get("searchParam");
        const all = [contact(1, "Maria"), contact(2, "João")];
        const list = q ? all.filter((c) => c.name.toLowerCase().includes(q.toLowerCase())) : all;
        return { contacts: list, count: list.length, hasMore: false };
      },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser({ profile: "user" }), plan: aPlan() });
    expect(await screen.findAllByTestId("contact-row")).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Excluir" })).toBeNull();
    await userEvent.type(screen.getByLabelText("Pesquisar..."), "ma");
    await new Promise((r) => setTimeout(r, 700));
    expect(calls.every((c) => !new URL(c.url).searchParams.get("searchParam"))).toBe(true);
    await userEvent.type(screen.getByLabelText("Pesquisar..."), "r");
    await waitFor(() => expect(screen.getAllByTestId("contact-row")).toHaveLength(1));
    expect(calls.some((c) => new URL(c.url).searchParams.get("searchParam") === "mar")).toBe(true);
  });

  it("imports a spreadsheet of contacts (csv, xls, xlsx) and reports what was merged; other files never reach the server", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": { contacts: [contact(1, "Maria")], count: 1, hasMore: false },
      "POST /api/contacts/upload": { created: 2, updated: 1, unchanged: 3, invalid: 1, duplicates: 1, truncated: false, contacts: [] },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser({ profile: "user" }), plan: aPlan() });
    await screen.findAllByTestId("contact-row");
    const input = screen.getByTestId("contacts-upload-input");
    await userEvent.upload(input, new File(["x"], "contatos.pdf", { type: "application/pdf" }), { applyAccept: false });
    expect(await screen.findByText("Envie um arquivo .csv, .xls ou .xlsx com as colunas nome, numero e email.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.upload(input, new File(["nome;numero\nAna;5511988887777\n"], "contatos.csv", { type: "text/csv" }), { applyAccept: false });
    expect(await screen.findByText("Planilha importada: 2 novos, 1 completados, 3 já existentes, 2 ignorados.")).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST" && c.url.endsWith("/api/contacts/upload"))!;
    expect(await ((await post.formData()).get("file") as Blob).text()).toBe("nome;numero\nAna;5511988887777\n");
  });

  it("a large spreadsheet is queued: the page says so, then reports the end from the import's realtime event", async () => {
    mockFetch({
      "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
      "POST /api/contacts/upload": { created: 0, updated: 0, unchanged: 0, invalid: 0, duplicates: 0, truncated: false, contacts: [], queued: 1200, requestId: "up:2:xyz" },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan() });
    await screen.findByRole("button", { name: "Importar do telefone" });
    await userEvent.upload(screen.getByTestId("contacts-upload-input"), new File(["nome;numero\n"], "grande.csv", { type: "text/csv" }), { applyAccept: false });
    expect(await screen.findByText("Planilha grande: 1200 linhas sendo importadas em segundo plano. Avisaremos quando terminar.")).toBeInTheDocument();
    expect(screen.queryByText(/Planilha importada: 0 novos/)).not.toBeInTheDocument();
    emitRealtime("contact", { action: "reload", import: { requestId: "other", done: true, progress: { merged: 5, total: 5 } } });
    expect(screen.queryByText(/Importação da planilha concluída/)).not.toBeInTheDocument();
    emitRealtime("contact", { action: "reload", import: { requestId: "up:2:xyz", done: true, progress: { merged: 1200, total: 1200 } } });
    expect(await screen.findByText("Importação da planilha concluída: 1200 linhas processadas.")).toBeInTheDocument();
  });

  it("imports the phone's contacts: asks the server, then waits for the import's end", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
      "POST /api/contacts/import": { message: "Importing contacts", requestId: "imp:1:abc", whatsappId: 1 },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Importar do telefone" }));
    expect(await screen.findByText("Buscando os contatos do telefone da conexão; eles aparecem na lista conforme chegam.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => new URL(c.url).pathname)).toEqual(["/api/contacts/import"]);
    expect(screen.getByRole("button", { name: "Importar do telefone" })).toBeDisabled();
  });

  it("a phone import that ends before the server's answer reaches the page still ends there", async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { calls } = mockFetch({
      "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
      "POST /api/contacts/import": async () => {
        await answered;
        return { message: "Importing contacts", requestId: "imp:1:early", whatsappId: 1 };
      },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Importar do telefone" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    // the session host was quicker than the answer: the import's end arrives first
    emitRealtime("contact", { action: "reload", import: { requestId: "imp:1:early", done: true } });
    answer();
    expect(await screen.findByText("Contatos do telefone importados.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Importar do telefone" })).toBeEnabled());
  });

  it("a phone import whose end was published while the socket was down ends when the socket opens again", async () => {
    let ended = false;
    const user = aUser();
    const { calls } = mockFetch({
      "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
      "POST /api/contacts/import": { message: "Importing contacts", requestId: "imp:1:lost", whatsappId: 1 },
      "GET /api/contacts/import/imp%3A1%3Alost": () => ({ requestId: "imp:1:lost", done: ended }),
      // what the session re-reads on any reopen (resync-on-open)
      "GET /api/auth/me": user,
      "GET /api/companies/listPlan/2": { id: 2, name: user.company.name, dueDate: user.company.dueDate, plan: aPlan() },
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user, plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Importar do telefone" }));
    await screen.findByText("Buscando os contatos do telefone da conexão; eles aparecem na lista conforme chegam.");
    // a reconnect while the import still runs: asked, not ended
    emitRealtimeReopen();
    await waitFor(() => expect(calls.filter((c) => c.method === "GET" && c.url.includes("/contacts/import/"))).toHaveLength(1));
    expect(screen.getByRole("button", { name: "Importar do telefone" })).toBeDisabled();
    // its end went out while the socket was down: the next open finds it, and a late event adds no second toast
    ended = true;
    emitRealtimeReopen();
    expect(await screen.findByText("Contatos do telefone importados.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Importar do telefone" })).toBeEnabled());
    emitRealtime("contact", { action: "reload", import: { requestId: "imp:1:lost", done: true } });
    expect(screen.getAllByText("Contatos do telefone importados.")).toHaveLength(1);
  });

  it("shows the server's refusal of a phone import (a connection not connected)", async () => {
    mockFetch({
      "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
      "POST /api/contacts/import": () => reply(400, { error: "ERR_WAPP_NOT_INITIALIZED" }),
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Importar do telefone" }));
    expect(await screen.findByText("Esta conexão ainda não foi inicializada. Tente conectar novamente.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Importar do telefone" })).toBeEnabled();
  });

  it("links each contact to a new scheduled message when the plan has schedules", async () => {
    mockFetch({ "GET /api/contacts": { contacts: [contact(7, "Maria")], count: 1, hasMore: false } });
    const { unmount } = renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan() });
    expect(await screen.findByRole("link", { name: "Agendar mensagem" })).toHaveAttribute("href", "/schedules?contactId=7");
    unmount();
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser(), plan: aPlan({ useSchedules: false }) });
    await screen.findAllByTestId("contact-row");
    expect(screen.queryByRole("link", { name: "Agendar mensagem" })).toBeNull();
  });

  it("adds and deletes internal notes with the spec's messages", async () => {
    let notes = [{ id: 1, note: "Cliente VIP", ticketId: 1, contactId: 10, userId: 2, user: { id: 2, name: "Ana" }, createdAt: "2026-05-10T12:00:00.000Z" }];
    const { calls } = mockFetch({
      "GET /api/ticket-notes/list": () => notes,
      "POST /api/ticket-notes": async (req: Request) => {
        const body = (await req.json()) as { note: string };
        const created = { ...notes[0]!, id: 2, note: body.note };
        notes = [...notes, created];
        return created;
      },
      "DELETE /api/ticket-notes/1": () => {
        notes = notes.filter((n) => n.id !== 1);
        return {};
      },
    });
    renderWithApp(<TicketNotes ticketId={1} contactId={10} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    expect(await screen.findByText("Cliente VIP")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Nova observação"), "Prefere WhatsApp");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Observação adicionada com sucesso!")).toBeInTheDocument();
    expect(await screen.findByText("Prefere WhatsApp")).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole("button", { name: "Excluir" })[0]!);
    expect(await screen.findByText("Deseja realmente excluir este registro?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    expect(await screen.findByText("Observação excluída com sucesso!")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("Cliente VIP")).toBeNull());
    expect(calls.some((c) => c.method === "DELETE")).toBe(true);
  });
});
