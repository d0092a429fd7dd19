import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../testing/fetch-mock";
import { renderWithApp } from "../../testing/render";
import { aPlan, aUser } from "../../testing/fixtures";
import { Composer } from "../../features/inbox/messages/components/composer";

/** The copilot's row in the composer (issue 33): summary, suggestions as chips that fill the box, rewrite. */
describe("the composer's copilot", { timeout: 30_000 }, () => {
  const on = { summary: true, suggestions: true, rewrite: true, transcription: true };
  const render = () => renderWithApp(<Composer ticketId={7} status="open" replyTo={null} onCancelReply={() => undefined} />, { route: "/tickets", user: aUser(), plan: aPlan() });

  it("shows the summary, and a suggestion goes into the box without being sent", async () => {
    const { calls } = mockFetch({
      "GET /api/quick-messages/list": [],
      "GET /api/copilot/features": on,
      "POST /api/tickets/7/copilot/summary": { summary: "A cliente quer trocar a geladeira." },
      "POST /api/tickets/7/copilot/suggestions": { suggestions: ["Claro, vamos trocar!", "Qual o número do pedido?"] },
    });
    render();
    await userEvent.click(await screen.findByRole("button", { name: "Resumo" }));
    expect(await screen.findByTestId("copilot-summary")).toHaveTextContent("A cliente quer trocar a geladeira.");
    await userEvent.click(screen.getByRole("button", { name: "Sugerir respostas" }));
    await userEvent.click(await screen.findByText("Qual o número do pedido?"));
    expect(screen.getByTestId("composer-input")).toHaveValue("Qual o número do pedido?");
    expect(calls.filter((r) => r.url.includes("/api/messages"))).toEqual([]);
  });

  it("rewrites the box's text in the chosen style", async () => {
    const { calls } = mockFetch({ "GET /api/quick-messages/list": [], "GET /api/copilot/features": on, "POST /api/copilot/rewrite": { text: "Prezado(a) cliente, Seu pedido chega amanhã." } });
    render();
    await userEvent.type(screen.getByTestId("composer-input"), "seu pedido chega amanhã");
    await userEvent.click(await screen.findByRole("button", { name: "Reescrever com IA" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Mais formal" }));
    await waitFor(() => expect(screen.getByTestId("composer-input")).toHaveValue("Prezado(a) cliente, Seu pedido chega amanhã."));
    expect(await calls.find((r) => r.url.endsWith("/api/copilot/rewrite"))!.json()).toEqual({ text: "seu pedido chega amanhã", style: "formal" });
  });

  it("shows nothing when the company has the copilot off", async () => {
    mockFetch({ "GET /api/quick-messages/list": [], "GET /api/copilot/features": { summary: false, suggestions: false, rewrite: false, transcription: false } });
    render();
    await screen.findByTestId("composer-input");
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId("composer-copilot")).toBeNull();
  });
});
