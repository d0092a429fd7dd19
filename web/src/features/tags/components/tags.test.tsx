import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { TagView } from "@atende/shared/contracts/http/tags";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { emitRealtime } from "../../../testing/realtime";
import { TagsPage } from "./tags-page";

const emit = emitRealtime;

const tag = (over: Partial<TagView>): TagView => ({
  id: 1,
  companyId: 2,
  name: "Urgente",
  color: "#FF0000",
  kanban: 0,
  ticketsCount: 0,
  userId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const page = (tags: TagView[], hasMore = false) => ({ tags, count: tags.length, hasMore });

describe("tags page", { timeout: 30_000 }, () => {
  it("lists each tag as a chip with its tickets count", async () => {
    mockFetch({ "GET /api/tags/": page([tag({ id: 1, name: "Urgente", ticketsCount: 4 }), tag({ id: 2, name: "VIP", color: "#00AA00", ticketsCount: 0 })]) });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser(), plan: aPlan() });
    const rows = await screen.findAllByTestId("tag-row");
    expect(within(rows[0]!).getByText("Urgente")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("4")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("VIP")).toBeInTheDocument();
  });

  it("requires a name of 3 or more characters before saving, then saves name, colour and the kanban switch", async () => {
    const { calls } = mockFetch({
      "GET /api/tags/": page([]),
      "POST /api/tags": tag({ id: 9, name: "Retornar", kanban: 1 }),
    });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser({ profile: "supervisor" }), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar tag" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Obrigatório")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Nome/), "ab");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Mensagem muito curta")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByLabelText(/Nome/), "c Retornar");
    await userEvent.click(within(dialog).getByLabelText("Kanban"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({ name: "abc Retornar", color: "#A4CCCC", kanban: 1 });
    expect(await screen.findByText("Tag salva com sucesso!")).toBeInTheDocument();
  });

  it("shows the kanban switch and the lanes' actions only to admin and supervisor", async () => {
    mockFetch({ "GET /api/tags/": page([tag({ id: 1, name: "Lane", kanban: 1 }), tag({ id: 2, name: "Comum", kanban: 0 })]) });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser({ profile: "user" }), plan: aPlan() });
    const rows = await screen.findAllByTestId("tag-row");
    expect(within(rows[0]!).queryByRole("button", { name: "Editar" })).toBeNull();
    await userEvent.click(within(rows[1]!).getByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByLabelText(/Nome/)).toHaveValue("Comum");
    expect(within(dialog).queryByLabelText("Kanban")).toBeNull();
  });

  it("deletes a tag only after confirmation", async () => {
    const { calls } = mockFetch({ "GET /api/tags/": page([tag({ id: 3, name: "Antiga" })]), "DELETE /api/tags/3": { message: "Tag deleted" } });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("tag-row");
    await userEvent.click(within(row).getByRole("button", { name: "Excluir" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(await screen.findByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/tags/3"))).toBe(true));
    expect(await screen.findByText("Tag excluída com sucesso!")).toBeInTheDocument();
  });

  it("searches lower-cased after typing stops", async () => {
    const { calls } = mockFetch({ "GET /api/tags/": page([]) });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser(), plan: aPlan() });
    await userEvent.type(await screen.findByLabelText("Pesquisar..."), "VIP");
    await waitFor(() => expect(calls.some((c) => new URL(c.url).searchParams.get("searchParam") === "vip")).toBe(true), { timeout: 3000 });
    expect(calls.some((c) => /searchParam=V/.test(c.url))).toBe(false);
  });

  it("shows a tag another user created, live, and loads the next page near the bottom of the list", async () => {
    let created = false;
    const { calls } = mockFetch({
      "GET /api/tags/": (req: Request) => {
        const pageNumber = new URL(req.url).searchParams.get("pageNumber");
        if (pageNumber === "2") return page([tag({ id: 30, name: "Zz página dois" })]);
        const first = Array.from({ length: 20 }, (_v, i) => tag({ id: i + 1, name: `Tag ${String(i).padStart(2, "0")}` }));
        return page(created ? [tag({ id: 99, name: "Aaa nova" }), ...first.slice(0, 19)] : first, true);
      },
    });
    renderWithApp(<TagsPage />, { route: "/tags", user: aUser(), plan: aPlan() });
    expect(await screen.findAllByTestId("tag-row")).toHaveLength(20);

    created = true;
    emit("tag", { action: "create", tag: tag({ id: 99, name: "Aaa nova" }) });
    expect(await screen.findByText("Aaa nova")).toBeInTheDocument();

    const scroller = screen.getByTestId("tags-scroll");
    Object.defineProperties(scroller, { scrollHeight: { value: 1000, configurable: true }, clientHeight: { value: 400, configurable: true } });
    scroller.scrollTop = 450; // 150 px from the bottom: not yet
    await act(async () => void scroller.dispatchEvent(new Event("scroll", { bubbles: true })));
    expect(calls.some((c) => new URL(c.url).searchParams.get("pageNumber") === "2")).toBe(false);
    scroller.scrollTop = 520; // 80 px from the bottom
    await act(async () => void scroller.dispatchEvent(new Event("scroll", { bubbles: true })));
    expect(await screen.findByText("Zz página dois")).toBeInTheDocument();
  });
});
