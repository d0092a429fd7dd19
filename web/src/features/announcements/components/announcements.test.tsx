import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AnnouncementResponse } from "@atende/shared/contracts/http/announcements";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { AnnouncementsPage } from "./announcements-page";
import { AnnouncementsPopover } from "./announcements-popover";

const ann = (over: Partial<AnnouncementResponse>): AnnouncementResponse => ({
  id: 1,
  title: "Manutenção",
  text: "Sábado às 22h",
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: "2026-01-01T12:00:00.000Z",
  updatedAt: "2026-01-01T12:00:00.000Z",
  ...over,
});
const page = (records: AnnouncementResponse[]) => ({ records, hasMore: false });
const operator = aUser({ super: true });

describe("announcements page", { timeout: 60_000 }, () => {
  it("lists title, priority label, status and image name", async () => {
    mockFetch({ "GET /api/announcements": page([ann({ id: 1, title: "Urgente", priority: 1, mediaName: "aviso.png" }), ann({ id: 2, title: "Rascunho", priority: 2, status: false })]) });
    renderWithApp(<AnnouncementsPage />, { route: "/announcements", user: operator, plan: aPlan() });
    const rows = await screen.findAllByTestId("announcement-row");
    expect(within(rows[0]!).getByText("Alta")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("aviso.png")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Ativo")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Média")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Inativo")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Sem imagem")).toBeInTheDocument();
  });

  it("requires title and text, then creates with the chosen priority and uploads the image", async () => {
    const { calls } = mockFetch({
      "GET /api/announcements": page([]),
      "POST /api/announcements": ann({ id: 9, title: "Novo", priority: 1 }),
      "POST /api/announcements/9/media-upload": ann({ id: 9, title: "Novo", priority: 1, mediaName: "foto.png" }),
    });
    renderWithApp(<AnnouncementsPage />, { route: "/announcements", user: operator, plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Novo informativo" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findAllByText("Obrigatório")).toHaveLength(2);
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.type(within(dialog).getByLabelText(/Título/), "Novo");
    await userEvent.type(within(dialog).getByLabelText(/Texto/), "Relatórios novos");
    await userEvent.click(within(dialog).getByRole("combobox"));
    await userEvent.click(await screen.findByRole("option", { name: "Alta" }));
    // a .gif is refused in the browser too
    await userEvent.upload(screen.getByTestId("announcement-file"), new File(["x"], "anim.gif", { type: "image/gif" }), { applyAccept: false });
    expect(screen.queryByTestId("announcement-attachment")).toBeNull();
    await userEvent.upload(screen.getByTestId("announcement-file"), new File(["png"], "foto.png", { type: "image/png" }));
    expect(screen.getByTestId("announcement-attachment")).toHaveTextContent("foto.png");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/announcements/9/media-upload"))).toBe(true));
    expect(await calls.find((c) => c.method === "POST" && c.url.endsWith("/api/announcements"))!.json()).toEqual({ title: "Novo", text: "Relatórios novos", priority: 1, status: true });
  });

  it("deletes only after confirmation", async () => {
    const { calls } = mockFetch({ "GET /api/announcements": page([ann({ id: 3, title: "Velho" })]), "DELETE /api/announcements/3": { message: "ok" } });
    renderWithApp(<AnnouncementsPage />, { route: "/announcements", user: operator, plan: aPlan() });
    await userEvent.click(within(await screen.findByTestId("announcement-row")).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText('Excluir "Velho"?')).toBeInTheDocument();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.url.endsWith("/announcements/3"))).toBe(true));
  });
});

describe("announcements popover", { timeout: 30_000 }, () => {
  it("shows announcements newest first in their priority colour and opens the full text", async () => {
    mockFetch({ "GET /api/announcements": page([ann({ id: 2, title: "Urgente", priority: 1, text: "Leia tudo" }), ann({ id: 1, title: "Dica", priority: 3 })]) });
    renderWithApp(<AnnouncementsPopover />, { route: "/", user: aUser({ profile: "user" }), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Informativos" }));
    const items = await screen.findAllByTestId("announcement-item");
    expect(items.map((i) => i.getAttribute("data-priority"))).toEqual(["1", "3"]);
    expect(getComputedStyle(within(items[0]!).getByText("Urgente")).color).toBe("rgb(211, 47, 47)");
    await userEvent.click(items[0]!);
    const view = await screen.findByRole("dialog");
    expect(within(view).getByText("Leia tudo")).toBeInTheDocument();
  });
});
