import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { ContactsPage } from "./contacts-page";
import { MergeDialog } from "./merge-dialog";
import { SameContactBanner } from "./same-contact-banner";

const contact = (id: number, name: string) => ({ id, companyId: 2, name, number: `55119999900${id}`, email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: null, extraInfo: [], createdAt: "", updatedAt: "" });
const counts = { tickets: 2, messages: 40, notes: 1, tags: 3, extraInfo: 1, schedules: 0, listMemberships: 1, optOuts: 0, lgpdRecords: 0, identities: 2 };

describe("contacts merged, never duplicated", { timeout: 30_000 }, () => {
  it("an admin opens the duplicates, picks Mesclar, sees the dry run's counts, confirms; nothing merges before the confirm", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": { contacts: [contact(1, "Marta"), contact(2, "Marta S")], count: 2, hasMore: false },
      "GET /api/contacts/duplicates": { groups: [{ reason: "number", contacts: [{ id: 1, name: "Marta", number: "5511999990001", email: "" }, { id: 2, name: "Marta S", number: "11999990001", email: "" }] }], truncated: false },
      "POST /api/contacts/2/merge": async (req: Request) => ({ dryRun: Boolean((await req.json()).dryRun), fromId: 2, intoId: 1, counts }),
    });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser({ profile: "admin" }), plan: aPlan() });
    await screen.findAllByTestId("contact-row");
    await userEvent.click(screen.getByRole("button", { name: "Duplicados" }));
    const group = await screen.findByTestId("duplicate-group");
    expect(within(group).getByText("Mesmo número")).toBeInTheDocument();
    const rows = within(group).getAllByRole("listitem");
    await userEvent.click(within(rows[1]!).getByRole("button", { name: "Mesclar" }));
    expect(await screen.findByText('"Marta S" será mesclado em "Marta" e depois excluído. Será movido:')).toBeInTheDocument();
    expect(screen.getByTestId("merge-count-messages")).toHaveTextContent("40");
    expect(screen.getByTestId("merge-count-tickets")).toHaveTextContent("2");
    const merges = () => calls.filter((c) => c.method === "POST");
    expect(merges()).toHaveLength(1);
    expect(await merges()[0]!.json()).toEqual({ intoId: 1, dryRun: true });
    const dialog = screen.getByRole("dialog", { name: 'Mesclar "Marta S" em outro contato' });
    await userEvent.click(within(dialog).getByRole("button", { name: "Mesclar" }));
    expect(await screen.findByText("Contatos mesclados.")).toBeInTheDocument();
    expect(await merges()[1]!.json()).toEqual({ intoId: 1, dryRun: false });
  });

  it("an attendant gets neither the duplicates nor Mesclar", async () => {
    mockFetch({ "GET /api/contacts": { contacts: [contact(1, "Marta")], count: 1, hasMore: false } });
    renderWithApp(<ContactsPage />, { route: "/contacts", user: aUser({ profile: "user" }), plan: aPlan() });
    await screen.findAllByTestId("contact-row");
    expect(screen.queryByRole("button", { name: "Duplicados" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Mesclar" })).toBeNull();
  });

  it("two open tickets on one connection: says which ticket to close first and offers no confirm", async () => {
    mockFetch({ "POST /api/contacts/5/merge": reply(409, { error: "ERR_MERGE_OPEN_TICKETS", data: { close: [{ ticketId: 71, whatsappId: 1, keptTicketId: 70 }] } }) });
    renderWithApp(<MergeDialog from={{ id: 5, name: "Ana", number: "1" }} choices={[{ id: 6, name: "Ana P", number: "2" }]} onClose={() => undefined} />, { route: "/contacts", user: aUser({ profile: "admin" }), plan: aPlan() });
    expect(await screen.findByText("Feche primeiro o atendimento #71 (o atendimento #70 do contato mantido continua).")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mesclar" })).toBeDisabled();
  });

  it("a website visitor's banner: 'Não é' keeps them apart, 'Sim, mesclar' merges through the offer", async () => {
    let candidates = [{ id: 9, name: "Joana", number: "5511944440001", email: "", reason: "number" }];
    const { calls } = mockFetch({
      "GET /api/contacts/30/same-contact": () => ({ candidates }),
      "POST /api/contacts/30/same-contact/9/dismiss": () => ((candidates = []), { dismissed: true }),
      "POST /api/contacts/30/same-contact/9/confirm": { dryRun: false, fromId: 30, intoId: 9, counts },
    });
    const view = renderWithApp(<SameContactBanner contactId={30} />, { route: "/tickets", user: aUser({ profile: "user" }), plan: aPlan() });
    const banner = await screen.findByTestId("same-contact-banner");
    expect(banner).toHaveTextContent("Mesmo contato? O visitante informou o telefone de Joana (+55 (11) 94444-0001). É a mesma pessoa?");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    await userEvent.click(within(banner).getByRole("button", { name: "Não é" }));
    await waitFor(() => expect(screen.queryByTestId("same-contact-banner")).toBeNull());
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toContain("POST /api/contacts/30/same-contact/9/dismiss");
    view.unmount();

    candidates = [{ id: 9, name: "Joana", number: "5511944440001", email: "", reason: "number" }];
    renderWithApp(<SameContactBanner contactId={30} />, { route: "/tickets", user: aUser({ profile: "user" }), plan: aPlan() });
    await userEvent.click(within(await screen.findByTestId("same-contact-banner")).getByRole("button", { name: "Sim, mesclar" }));
    expect(await screen.findByText("Visitante mesclado com Joana.")).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toContain("POST /api/contacts/30/same-contact/9/confirm");
  });
});
