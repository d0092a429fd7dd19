import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { TagView } from "@atende/shared/contracts/http/tags";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { emitRealtime } from "../../../testing/realtime";
import { KanbanPage } from "./kanban-page";

const emit = emitRealtime;

const lane = (id: number, name: string, color = "#336699"): TagView => ({
  id,
  companyId: 2,
  name,
  color,
  kanban: 1,
  ticketsCount: 0,
  userId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});
const ticket = (id: number, name: string, tags: { id: number; name: string; color: string }[] = []) =>
  ({
    id,
    uuid: `00000000-0000-4000-8000-00000000000${id}`,
    status: "open",
    contact: { id, name, number: "5511987654321", email: "", profilePicUrl: "", isGroup: false, extraInfo: [] },
    lastMessage: `mensagem de ${name}`,
    tags,
  }) as unknown as TicketView;

const board = () => ({
  "GET /api/tags/kanban": { lista: [lane(7, "Negociando"), lane(8, "Fechado", "#00AA00")] },
  "GET /api/ticket/kanban": { tickets: [ticket(1, "Maria"), ticket(2, "João", [{ id: 8, name: "Fechado", color: "#00AA00" }])] },
});
const laneNamed = (name: string) => screen.getByRole("region", { name });

describe("kanban page", { timeout: 30_000 }, () => {
  it("puts tickets without a kanban tag in the first lane and the others in their tag's lane, asking for the user's queues", async () => {
    const { calls } = mockFetch(board());
    renderWithApp(<KanbanPage />, { route: "/kanban", user: aUser({ queues: [{ id: 4, name: "Vendas", color: "#111", UserQueue: { queueId: 4 } }] }), plan: aPlan() });
    expect(await screen.findByText("Maria")).toBeInTheDocument();
    expect(within(laneNamed("Em aberto")).getByText("Maria")).toBeInTheDocument();
    expect(within(laneNamed("Em aberto")).getByText("mensagem de Maria")).toBeInTheDocument();
    expect(within(laneNamed("Fechado")).getByText("João")).toBeInTheDocument();
    expect(within(laneNamed("Negociando")).getByText("Nenhum ticket.")).toBeInTheDocument();
    const kanbanCall = calls.find((c) => c.url.includes("/ticket/kanban"))!;
    expect(new URL(kanbanCall.url).searchParams.get("queueIds")).toBe("[4]");
  });

  it("moves a card with the menu: removes the old tag link first, then adds the lane's tag, toasting both", async () => {
    const order: string[] = [];
    mockFetch({
      ...board(),
      "DELETE /api/ticket-tags/2": () => (order.push("delete"), {}),
      "PUT /api/ticket-tags/2/7": () => (order.push("put 7"), {}),
    });
    renderWithApp(<KanbanPage />, { route: "/kanban", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Mover João para outra coluna" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Negociando" }));
    await waitFor(() => expect(order).toEqual(["delete", "put 7"]));
    expect(await screen.findByText("Ticket Tag Removido!")).toBeInTheDocument();
    expect(await screen.findByText("Ticket Tag Adicionado com Sucesso!")).toBeInTheDocument();
  });

  it("moves a card by drag and drop; dropping on the first lane only removes the tag link", async () => {
    const order: string[] = [];
    mockFetch({
      ...board(),
      "DELETE /api/ticket-tags/1": () => (order.push("delete 1"), {}),
      "PUT /api/ticket-tags/1/8": () => (order.push("put 1/8"), {}),
      "DELETE /api/ticket-tags/2": () => (order.push("delete 2"), {}),
    });
    renderWithApp(<KanbanPage />, { route: "/kanban", user: aUser(), plan: aPlan() });
    const maria = (await screen.findByText("Maria")).closest("[data-testid=kanban-card]")!;
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (k: string, v: string) => data.set(k, v),
      getData: (k: string) => data.get(k) ?? "",
      get types() {
        return [...data.keys()];
      },
      effectAllowed: "",
      dropEffect: "",
    };
    fireEvent.dragStart(maria, { dataTransfer });
    fireEvent.dragOver(laneNamed("Fechado"), { dataTransfer });
    fireEvent.drop(laneNamed("Fechado"), { dataTransfer });
    await waitFor(() => expect(order).toEqual(["delete 1", "put 1/8"]));

    data.clear();
    const joao = screen.getByText("João").closest("[data-testid=kanban-card]")!;
    fireEvent.dragStart(joao, { dataTransfer });
    fireEvent.drop(laneNamed("Em aberto"), { dataTransfer });
    await waitFor(() => expect(order).toEqual(["delete 1", "put 1/8", "delete 2"]));
  });

  it("opens the ticket when a card is clicked", async () => {
    mockFetch(board());
    renderWithApp(<KanbanPage />, { route: "/kanban", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByText("Maria"));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });

  it("updates the board when a ticket changes", async () => {
    let tagged = false;
    mockFetch({
      "GET /api/tags/kanban": { lista: [lane(7, "Negociando")] },
      "GET /api/ticket/kanban": () => ({ tickets: [ticket(1, "Maria", tagged ? [{ id: 7, name: "Negociando", color: "#336699" }] : [])] }),
    });
    renderWithApp(<KanbanPage />, { route: "/kanban", user: aUser(), plan: aPlan() });
    await within(await screen.findByRole("region", { name: "Em aberto" })).findByText("Maria");
    tagged = true;
    emit("ticket", { action: "update", ticket: ticket(1, "Maria", [{ id: 7, name: "Negociando", color: "#336699" }]) });
    await waitFor(() => expect(within(laneNamed("Negociando")).queryByText("Maria")).not.toBeNull());
    expect(within(laneNamed("Em aberto")).queryByText("Maria")).toBeNull();
  });
});
