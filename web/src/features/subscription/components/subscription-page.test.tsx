import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { SubscriptionPage } from "./subscription-page";

const company = (trialExpiration: string | null) => ({ id: 2, name: "Demo", email: "financeiro@demo.com.br", trialExpiration });

describe("subscription page", { timeout: 30_000 }, () => {
  it("shows the trial days left from trialExpiration and the billing email; subscribe goes to the invoices", async () => {
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString();
    mockFetch({ "GET /api/companies/2": company(inThreeDays) });
    renderWithApp(<SubscriptionPage />, { route: "/subscription", user: aUser(), plan: aPlan() });
    expect(await screen.findByTestId("trial-days")).toHaveTextContent("Seu período de teste termina em 3 dias.");
    expect(screen.getByTestId("billing-email")).toHaveTextContent("financeiro@demo.com.br");
    await userEvent.click(screen.getByRole("button", { name: "Assine agora!" }));
    expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  });

  it("says when the trial is over", async () => {
    mockFetch({ "GET /api/companies/2": company("2020-01-01T00:00:00.000Z") });
    renderWithApp(<SubscriptionPage />, { route: "/subscription", user: aUser(), plan: aPlan() });
    expect(await screen.findByTestId("trial-days")).toHaveTextContent("Seu período de teste terminou.");
  });
});
