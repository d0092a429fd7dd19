import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { CampaignSettingsPage } from "./campaign-settings-page";

const records = (s: { messageInterval: number; longerIntervalAfter: number; greaterInterval: number; variables: { key: string; value: string }[] }) =>
  Object.entries(s).map(([key, value]) => ({ key, value: JSON.stringify(value), companyId: 1 }));
const DEFAULTS = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] };

describe("campaign settings page", { timeout: 60_000 }, () => {
  it("shows the intervals with the spec's options and defaults", async () => {
    mockFetch({ "GET /api/campaign-settings": records(DEFAULTS) });
    renderWithApp(<CampaignSettingsPage />, { route: "/campaigns-config", user: aUser(), plan: aPlan() });
    const interval = await screen.findByRole("combobox", { name: "Intervalo randômico de disparo" });
    expect(interval).toHaveTextContent("20 segundos");
    expect(screen.getByRole("combobox", { name: "Intervalo de disparo maior" })).toHaveTextContent("60 segundos");
    await userEvent.click(interval);
    const options = within(await screen.findByRole("listbox")).getAllByRole("option").map((o) => o.textContent);
    expect(options).toEqual(["Sem intervalo", "5 segundos", "10 segundos", "15 segundos", "20 segundos"]);
  });

  it("adds variables, refuses a duplicate key, removes one and saves", async () => {
    const { calls } = mockFetch({
      "GET /api/campaign-settings": records({ ...DEFAULTS, variables: [{ key: "loja", value: "Centro" }] }),
      "POST /api/campaign-settings": records(DEFAULTS),
    });
    renderWithApp(<CampaignSettingsPage />, { route: "/campaigns-config", user: aUser(), plan: aPlan() });
    expect(await screen.findByText("{loja}")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Atalho"), "loja");
    await userEvent.type(screen.getByLabelText("Conteúdo"), "Outra");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(await screen.findByText("Já existe uma variável com este atalho.")).toBeInTheDocument();
    expect(screen.getAllByTestId("variable-row")).toHaveLength(1);

    await userEvent.clear(screen.getByLabelText("Atalho"));
    await userEvent.type(screen.getByLabelText("Atalho"), "cupom");
    await userEvent.clear(screen.getByLabelText("Conteúdo"));
    await userEvent.type(screen.getByLabelText("Conteúdo"), "NATAL10");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    expect(screen.getAllByTestId("variable-row")).toHaveLength(2);

    await userEvent.click(within(screen.getAllByTestId("variable-row")[0]!).getByRole("button", { name: "Remover variável" }));
    await userEvent.click(screen.getByRole("combobox", { name: "Intervalo randômico de disparo" }));
    await userEvent.click(within(await screen.findByRole("listbox")).getByRole("option", { name: "5 segundos" }));
    await userEvent.click(screen.getByRole("button", { name: "Salvar configurações" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toEqual({
      settings: { messageInterval: 5, longerIntervalAfter: 20, greaterInterval: 60, variables: [{ key: "cupom", value: "NATAL10" }] },
    });
    expect(await screen.findByText("Configurações salvas")).toBeInTheDocument();
  });
});
