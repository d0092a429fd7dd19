import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aTicket } from "../testing/ticket-fixtures";
import { NewTicketDialog } from "./new-ticket-dialog";
import { TransferDialog } from "./transfer-dialog";

const attendant = aUser({ id: 3, name: "Beto Atendente", profile: "user", queues: [{ id: 1, name: "Vendas", color: "#1976d2", UserQueue: { queueId: 1 } }] });
const maria = { id: 10, companyId: 2, name: "Maria Cliente", number: "5511999990000", email: "", profilePicUrl: "", isGroup: false, lid: null, whatsappId: null, extraInfo: [], createdAt: "", updatedAt: "" };
const pickers = {
  "GET /api/queue": [
    { id: 1, name: "Vendas", color: "#1976d2" },
    { id: 2, name: "Suporte", color: "#9c27b0" },
  ],
  "GET /api/whatsapp/": [{ id: 1, name: "Simulador", status: "CONNECTED" }],
  "GET /api/contacts": { contacts: [], count: 0, hasMore: false },
  "GET /api/users/list": [{ id: 5, name: "Carla", queues: [{ id: 2, name: "Suporte", color: "#9c27b0" }], queueIds: [2] }],
};

describe("new ticket dialog", { timeout: 30_000 }, () => {
  it("asks an attendant to choose a queue: 'Selecione uma fila'", async () => {
    const { calls } = mockFetch(pickers);
    renderWithApp(<NewTicketDialog open initialContact={maria} onClose={() => undefined} />, { route: "/tickets", user: attendant, plan: aPlan() });
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByText("Selecione uma fila")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("an open ticket of another user shows that user and queue", async () => {
    mockFetch({
      ...pickers,
      "POST /api/tickets": reply(409, { error: "ERR_OTHER_OPEN_TICKET", data: aTicket({ id: 4, userId: 5, user: { id: 5, name: "Carla" }, queue: { id: 2, name: "Suporte", color: "#000" } }) }),
    });
    renderWithApp(<NewTicketDialog open initialContact={maria} onClose={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByTestId("other-open-ticket")).toHaveTextContent("Carla");
    expect(screen.getByTestId("other-open-ticket")).toHaveTextContent("Suporte");
  });

  it("the user's own open ticket simply opens", async () => {
    mockFetch({ ...pickers, "POST /api/tickets": reply(409, { error: "ERR_OTHER_OPEN_TICKET", data: aTicket({ id: 4, uuid: "own-4", userId: 2 }) }) });
    renderWithApp(<NewTicketDialog open initialContact={maria} onClose={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
    expect(screen.queryByTestId("other-open-ticket")).toBeNull();
  });
});

describe("transfer dialog", { timeout: 30_000 }, () => {
  it("requires a queue, then sends queue, user and connection", async () => {
    const { calls } = mockFetch({ ...pickers, "PUT /api/tickets/1": aTicket({ id: 1, queueId: 2, userId: 5 }) });
    renderWithApp(<TransferDialog ticket={aTicket({ id: 1 })} onClose={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByTestId("transfer-submit"));
    expect(await screen.findByText("Selecione uma fila")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    await userEvent.click(within(screen.getByTestId("transfer-queue")).getByRole("combobox"));
    await userEvent.click(await screen.findByRole("option", { name: "Suporte" }));
    await userEvent.click(within(screen.getByTestId("transfer-user")).getByRole("combobox"));
    await userEvent.click(await screen.findByRole("option", { name: "Carla" }));
    await userEvent.click(screen.getByTestId("transfer-submit"));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(await calls.find((c) => c.method === "PUT")?.json()).toEqual({ queueId: 2, whatsappId: 1, userId: 5, status: "open" });
  });
});
