import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ContactOptOutState } from "@atende/shared/contracts/http/lgpd";
import { DEFAULT_LGPD_SETTINGS } from "@atende/shared/domain/lgpd/lgpd-settings";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { ContactPrivacySection } from "./contact-privacy-section";
import { LgpdSettingsSection } from "./lgpd-settings-section";
import { OptOutsPage } from "./opt-outs-page";

const admin = aUser({ profile: "admin" });
const optedOut: ContactOptOutState = {
  optedOut: true,
  optOut: { number: "5511988887777", contactId: 3, optedOutAt: "2026-01-02T10:00:00.000Z", message: "SAIR", source: "campaign", campaignId: 2 },
};

describe("LGPD settings", { timeout: 60_000 }, () => {
  it("shows retention off by default and saves the words, the confirmation and the days", async () => {
    const { calls } = mockFetch({
      "GET /api/lgpd/settings": DEFAULT_LGPD_SETTINGS,
      "PUT /api/lgpd/settings": async (req: Request) => ({ ...DEFAULT_LGPD_SETTINGS, ...((await req.json()) as object) }),
    });
    renderWithApp(<LgpdSettingsSection />, { route: "/settings", user: admin, plan: aPlan() });
    const section = await screen.findByTestId("lgpd-settings");
    expect(within(section).getByLabelText("Palavras de opt-out")).toHaveValue("SAIR, PARAR, STOP, CANCELAR");
    expect(within(section).queryByLabelText(/mais de \(dias\)/)).toBeNull();
    await userEvent.click(within(section).getByLabelText("Apagar mídias antigas"));
    const days = within(section).getByLabelText(/mais de \(dias\)/);
    await userEvent.clear(days);
    await userEvent.type(days, "0");
    expect(within(section).getByRole("button", { name: "Salvar" })).toBeDisabled();
    await userEvent.clear(days);
    await userEvent.type(days, "45");
    await userEvent.click(within(section).getByLabelText(/qualquer atendimento/));
    await userEvent.click(within(section).getByRole("button", { name: "Salvar" }));
    await screen.findByText("Configurações de privacidade salvas.");
    const put = calls.find((c) => c.method === "PUT")!;
    expect(await put.json()).toMatchObject({ mediaRetentionDays: 45, optOutInAnyTicket: true, optOutKeywords: ["SAIR", "PARAR", "STOP", "CANCELAR"] });
  });
});

describe("contact privacy block", { timeout: 60_000 }, () => {
  it("shows the opt-out with its message and lets the admin clear it", async () => {
    let state = optedOut;
    mockFetch({
      "GET /api/contacts/3/opt-out": () => state,
      "DELETE /api/contacts/3/opt-out": () => ((state = { optedOut: false, optOut: null }), state),
    });
    renderWithApp(<ContactPrivacySection contactId={3} contactName="Joana" />, { route: "/tickets", user: admin, plan: aPlan() });
    const alert = await screen.findByText(/Pediu para sair em .*"SAIR"/);
    await userEvent.click(within(alert.closest("[role=alert]") as HTMLElement).getByRole("button", { name: "Liberar" }));
    await waitFor(() => expect(screen.getByTestId("opt-out-state")).toHaveTextContent("Recebe campanhas"));
  });

  it("erases after confirmation and shows a large history's job", async () => {
    const erased: number[] = [];
    mockFetch({
      "GET /api/contacts/3/opt-out": { optedOut: false, optOut: null },
      "DELETE /api/contacts/3": (req: Request) => {
        expect(new URL(req.url).searchParams.get("erase")).toBe("true");
        erased.push(3);
        return reply(202, { job: { id: "j1", kind: "erase", contactId: 3, status: "running", progress: 10, downloadUrl: null, expiresAt: null, error: null, createdAt: "", updatedAt: "" } });
      },
    });
    renderWithApp(<ContactPrivacySection contactId={3} contactName="Joana" />, { route: "/tickets", user: admin, plan: aPlan() });
    await userEvent.click(await screen.findByRole("button", { name: "Apagar dados" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Joana");
    expect(erased).toEqual([]);
    await userEvent.click(within(dialog).getByRole("button", { name: /confirmar/i }));
    expect(await screen.findByText("Apagando…")).toBeInTheDocument();
    expect(erased).toEqual([3]);
  });
});

describe("opt-out list", { timeout: 60_000 }, () => {
  it("lists numbers with when and why", async () => {
    mockFetch({ "GET /api/opt-outs": { optOuts: [optedOut.optOut], count: 1, hasMore: false } });
    renderWithApp(<OptOutsPage />, { route: "/opt-outs", user: admin, plan: aPlan() });
    const row = await screen.findByTestId("opt-out-row");
    expect(row).toHaveTextContent("5511988887777");
    expect(row).toHaveTextContent("Resposta a campanha");
    expect(row).toHaveTextContent("SAIR");
  });
});
