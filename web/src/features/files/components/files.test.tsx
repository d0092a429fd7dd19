import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { FileListResponse } from "@atende/shared/contracts/http/files";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { FilesPage } from "./files-page";

const list = (over: Partial<FileListResponse>): FileListResponse => ({
  id: 1,
  name: "Catálogos",
  message: "Segue",
  options: [],
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const page = (files: FileListResponse[]) => ({ files, hasMore: false });

describe("file lists page", { timeout: 60_000 }, () => {
  it("lists names with how many files each has", async () => {
    mockFetch({
      "GET /api/files": page([list({ id: 1, name: "Catálogos", options: [{ id: 1, name: "a", path: "2/x/a.pdf", mediaType: "document", mediaName: "a.pdf", mediaUrl: "/api/media/2/x/a.pdf" }] })]),
    });
    renderWithApp(<FilesPage />, { route: "/files", user: aUser(), plan: aPlan() });
    const row = await screen.findByTestId("file-list-row");
    expect(within(row).getByText("Catálogos")).toBeInTheDocument();
    expect(within(row).getByText("1 arquivo(s)")).toBeInTheDocument();
  });

  it("refuses a short name and an empty message, then saves the list and uploads each option's file", async () => {
    const saved = list({ id: 7, name: "Tabelas", message: "Veja", options: [{ id: 1, name: "Preços", path: null, mediaType: null, mediaName: null, mediaUrl: null }] });
    const { calls } = mockFetch({ "GET /api/files": page([]), "POST /api/files": saved, "POST /api/files/uploadList/7": saved });
    renderWithApp(<FilesPage />, { route: "/files", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar lista" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), "ab");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));
    expect(await within(dialog).findByText("Nome muito curto")).toBeInTheDocument();
    expect(within(dialog).getByText("Obrigatório")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText(/^Nome/));
    await userEvent.type(within(dialog).getByLabelText(/^Nome/), "Tabelas");
    await userEvent.type(within(dialog).getByLabelText(/Mensagem/), "Veja");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar arquivo" }));
    await userEvent.type(within(dialog).getByLabelText("Nome do arquivo"), "Preços");
    await userEvent.upload(screen.getByTestId("file-option-input-0"), new File(["%PDF"], "precos.pdf", { type: "application/pdf" }));
    expect(screen.getByTestId("file-option-file")).toHaveTextContent("precos.pdf");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar" }));

    await waitFor(() => expect(calls.some((c) => c.url.endsWith("/files/uploadList/7"))).toBe(true));
    expect(await calls.find((c) => c.method === "POST" && c.url.endsWith("/api/files"))!.json()).toEqual({ name: "Tabelas", message: "Veja", options: [{ name: "Preços" }] });
    const form = await calls.find((c) => c.url.endsWith("/files/uploadList/7"))!.formData();
    expect(form.getAll("id")).toEqual(["1"]);
    // (jsdom's Request drops the file name; the type survives)
    expect(form.getAll("mediaType")).toEqual(["application/pdf"]);
    expect(form.getAll("files")).toHaveLength(1);
  });

  it("refuses a file type that is not allowed", async () => {
    mockFetch({ "GET /api/files": page([]) });
    renderWithApp(<FilesPage />, { route: "/files", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Adicionar lista" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Adicionar arquivo" }));
    await userEvent.upload(screen.getByTestId("file-option-input-0"), new File(["MZ"], "setup.exe"));
    expect(screen.getByTestId("file-option-file")).toHaveTextContent("Nenhum arquivo escolhido");
    expect(await screen.findByText("Tipo de arquivo não permitido.")).toBeInTheDocument();
  });
});
