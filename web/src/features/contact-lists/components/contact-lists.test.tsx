import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ContactListItemResponse, ContactListResponse } from "@atende/shared/contracts/http/contact-lists";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { ContactListItemsPage } from "./contact-list-items-page";
import { ContactListsPage } from "./contact-lists-page";

const aList = (over: Partial<ContactListResponse> = {}): ContactListResponse => ({
  id: 3,
  name: "Clientes",
  contactsCount: 2,
  companyId: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const anItem = (over: Partial<ContactListItemResponse> = {}): ContactListItemResponse => ({
  id: 10,
  name: "Maria",
  number: "5511988887777",
  email: "",
  isWhatsappValid: false,
  checkedAt: null,
  companyId: 1,
  contactListId: 3,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("contact lists page", { timeout: 60_000 }, () => {
  it("shows each list with its contact count", async () => {
    mockFetch({ "GET /api/contact-lists/": { records: [aList({ name: "Clientes", contactsCount: 42 })], hasMore: false } });
    renderWithApp(<ContactListsPage />, { route: "/contact-lists", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("contact-list-row");
    expect(within(row).getByText("Clientes")).toBeInTheDocument();
    expect(within(row).getByText("42")).toBeInTheDocument();
  });

  it("refuses an empty, a short and a long name, then saves a good one", async () => {
    const { calls } = mockFetch({ "GET /api/contact-lists/": { records: [], hasMore: false }, "POST /api/contact-lists": aList({ name: "Black Friday" }) });
    renderWithApp(<ContactListsPage />, { route: "/contact-lists", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Nova lista" }));
    const dialog = await screen.findByRole("dialog");
    const name = within(dialog).getByLabelText(/^Nome/);
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(name, "A");
    expect(within(dialog).getByText("Muito curto!")).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.type(name, "x".repeat(51));
    expect(within(dialog).getByText("Muito longo!")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.clear(name);
    await userEvent.type(name, "Black Friday");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({ name: "Black Friday" });
    expect(await screen.findByText("Lista de contatos salva com sucesso!")).toBeInTheDocument();
  });
});

describe("contact list items page", { timeout: 60_000 }, () => {
  const routes = (items: ContactListItemResponse[]) => ({
    "GET /api/contact-lists/3": aList(),
    "GET /api/contact-list-items": { contacts: items, hasMore: false },
  });
  const render = () => renderWithApp(<ContactListItemsPage />, { route: "/contact-lists/3/contacts", path: "/contact-lists/:contactListId/contacts", user: aUser(), plan: aPlan() });

  it("shows each row's WhatsApp validity", async () => {
    mockFetch(
      routes([
        anItem({ id: 1, name: "Válido", isWhatsappValid: true, checkedAt: "2026-01-01T00:00:00.000Z" }),
        anItem({ id: 2, name: "Inválido", number: "5511900000001", checkedAt: "2026-01-01T00:00:00.000Z" }),
        anItem({ id: 3, name: "Pendente", number: "5511900000002" }),
      ]),
    );
    render();
    const rows = await screen.findAllByTestId("contact-list-item-row");
    expect(rows.map((r) => within(r).getByTestId("validity").dataset.validity)).toEqual(["valid", "invalid", "checking"]);
    expect(await screen.findByText("Contatos da lista: Clientes")).toBeInTheDocument();
  });

  it("validates name, number and email before adding a contact to this list", async () => {
    const { calls } = mockFetch({ ...routes([]), "POST /api/contact-list-items": anItem({ name: "Ana" }) });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar contato" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), "A");
    await userEvent.type(within(dialog).getByLabelText(/^Número/), "1234");
    await userEvent.type(within(dialog).getByLabelText(/^E-mail/), "ana@");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(within(dialog).getAllByText("Muito curto!")).toHaveLength(2);
    expect(within(dialog).getByText("E-mail inválido")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByLabelText(/^Nome/), "na");
    await userEvent.type(within(dialog).getByLabelText(/^Número/), "5678");
    await userEvent.type(within(dialog).getByLabelText(/^E-mail/), "x.com");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({ name: "Ana", number: "12345678", email: "ana@x.com", contactListId: 3 });
  });

  it("refuses a file that is not a spreadsheet without calling the server, and shows the server's refusal", async () => {
    const { calls } = mockFetch({ ...routes([]), "POST /api/contact-lists/3/upload": () => reply(400, { error: "ERR_INVALID_IMPORT_FILE" }) });
    render();
    await screen.findByText("Nenhum contato nesta lista.");
    const input = screen.getByTestId("import-input");
    await userEvent.upload(input, new File(["a,b"], "contatos.csv", { type: "text/csv" }), { applyAccept: false });
    expect(await screen.findByText("Arquivo inválido: envie uma planilha .xls ou .xlsx.")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.upload(input, new File(["nope"], "contatos.xlsx"), { applyAccept: false });
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await screen.findAllByText("Arquivo inválido: envie uma planilha .xls ou .xlsx.")).not.toHaveLength(0);
  });
  it("says when rows were skipped because the person's data was erased (LGPD): never a silent import", async () => {
    mockFetch({
      ...routes([]),
      "POST /api/contact-lists/3/upload": { added: 2, queued: 0, duplicates: 0, invalid: 0, truncated: false, contactList: aList(), erased: 1, erasedNumbers: ["5511977776666"] },
    });
    render();
    await screen.findByText("Nenhum contato nesta lista.");
    await userEvent.upload(screen.getByTestId("import-input"), new File(["x"], "contatos.xlsx"), { applyAccept: false });
    expect(await screen.findByText("1 linha(s) ignorada(s): o número pertence a uma pessoa cujos dados foram apagados a pedido dela (LGPD).")).toBeInTheDocument();
  });
});
