import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { changeLanguage } from "../../lib/i18n";
import { mockFetch, reply } from "../../testing/fetch-mock";
import { renderWithApp } from "../../testing/render";
import { HealthBanner } from "./health-banner";

describe("HealthBanner", () => {
  it("shows the degraded banner when the API answers 503 degraded", async () => {
    await changeLanguage("pt");
    const { fn } = mockFetch({ "GET /api/health": () => reply(503, { status: "degraded", checks: { table: "error" } }) });
    renderWithApp(<HealthBanner />);
    expect(await screen.findByRole("alert")).toHaveTextContent("O sistema está instável");
    expect(fn).toHaveBeenCalled();
  });

  it("shows nothing while the API is ok", async () => {
    const { fn } = mockFetch({ "GET /api/health": { status: "ok", checks: { table: "ok" } } });
    renderWithApp(<HealthBanner />);
    await waitFor(() => expect(fn).toHaveBeenCalled());
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("speaks English and Spanish too", async () => {
    mockFetch({ "GET /api/health": () => reply(503, { status: "degraded" }) });
    await changeLanguage("en");
    const { unmount } = renderWithApp(<HealthBanner />);
    expect(await screen.findByRole("alert")).toHaveTextContent("The system is degraded");
    unmount();
    await changeLanguage("es");
    renderWithApp(<HealthBanner />);
    expect(await screen.findByRole("alert")).toHaveTextContent("El sistema está inestable");
    await changeLanguage("pt");
  });
});
