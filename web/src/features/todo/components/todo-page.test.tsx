import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { TASKS_KEY, type Task } from "../todo-storage";
import { TodoPage } from "./todo-page";

const stored = (): Task[] => JSON.parse(localStorage.getItem(TASKS_KEY) ?? "[]") as Task[];
const items = () => within(screen.getByTestId("todo-list")).getAllByRole("listitem");

describe("to-do page", () => {
  it("adds, edits and deletes tasks kept under localStorage 'tasks'", { timeout: 30_000 }, async () => {
    const user = userEvent.setup();
    renderWithApp(<TodoPage />, { route: "/todolist", user: aUser() });

    await user.type(screen.getByLabelText("Nova tarefa"), "Ligar para o cliente");
    await user.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(items()).toHaveLength(1);
    expect(screen.getByText("Ligar para o cliente")).toBeInTheDocument();
    const [first] = stored();
    expect(first).toMatchObject({ text: "Ligar para o cliente" });
    expect(first?.createdAt).toBe(first?.updatedAt);

    await user.click(screen.getByRole("button", { name: "Editar tarefa Ligar para o cliente" }));
    expect(screen.getByLabelText("Nova tarefa")).toHaveValue("Ligar para o cliente");
    await user.clear(screen.getByLabelText("Nova tarefa"));
    await user.type(screen.getByLabelText("Nova tarefa"), "Enviar proposta");
    await user.click(screen.getByRole("button", { name: "Salvar" }));
    expect(items()).toHaveLength(1);
    expect(stored()[0]).toMatchObject({ text: "Enviar proposta", createdAt: first?.createdAt });

    await user.click(screen.getByRole("button", { name: "Excluir tarefa Enviar proposta" }));
    expect(screen.queryByTestId("todo-list")).not.toBeInTheDocument();
    expect(stored()).toEqual([]);
  });

  it("ignores blank text", { timeout: 15_000 }, async () => {
    const user = userEvent.setup();
    renderWithApp(<TodoPage />, { route: "/todolist", user: aUser() });
    await user.type(screen.getByLabelText("Nova tarefa"), "   ");
    await user.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(screen.getByText("Nenhuma tarefa ainda.")).toBeInTheDocument();
    expect(localStorage.getItem(TASKS_KEY)).toBeNull();
  });

  it("shows the tasks already saved in this browser", () => {
    const now = new Date().toISOString();
    localStorage.setItem(TASKS_KEY, JSON.stringify([{ text: "Antiga", createdAt: now, updatedAt: now }]));
    renderWithApp(<TodoPage />, { route: "/todolist", user: aUser() });
    expect(screen.getByText("Antiga")).toBeInTheDocument();
  });
});
