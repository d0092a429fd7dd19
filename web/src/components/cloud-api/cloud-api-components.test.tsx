import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { mockFetch } from "../../testing/fetch-mock";
import { renderWithApp } from "../../testing/render";
import { ReplyWindowBadge } from "./reply-window-badge";
import { TemplatePicker } from "./template-picker";

const tpl = (name: string, status: string, body: string) => ({
  id: name,
  name,
  language: "pt_BR",
  category: "UTILITY",
  status,
  header: null,
  body,
  footer: null,
  buttons: [],
  whatsappId: 4,
  syncedAt: "2026-11-24T00:00:00.000Z",
});

describe("the 24-hour window badge", () => {
  it("counts down while open, turns amber in the last hour, says closed after, and shows nothing without a window", () => {
    const now = Date.parse("2026-11-24T12:00:00.000Z");
    const { rerender } = renderWithApp(<ReplyWindowBadge window={{ kind: "open", closesAt: "2026-11-24T20:30:05.000Z", remainingMs: 0, closingSoon: false }} now={() => now} />);
    expect(screen.getByTestId("reply-window")).toHaveAttribute("data-state", "open");
    expect(screen.getByTestId("reply-window")).toHaveTextContent("08:30:05");
    rerender(<ReplyWindowBadge window={{ kind: "open", closesAt: "2026-11-24T12:40:00.000Z", remainingMs: 0, closingSoon: true }} now={() => now} />);
    expect(screen.getByTestId("reply-window")).toHaveAttribute("data-state", "closing");
    rerender(<ReplyWindowBadge window={{ kind: "closed", closedAt: "2026-11-24T11:00:00.000Z" }} now={() => now} />);
    expect(screen.getByTestId("reply-window")).toHaveAttribute("data-state", "closed");
    rerender(<ReplyWindowBadge window={{ kind: "none" }} now={() => now} />);
    expect(screen.queryByTestId("reply-window")).toBeNull();
  });
});

describe("the template picker", { timeout: 30_000 }, () => {
  it("offers approved templates only, fills variables from the contact or by typing, previews, and sends name, language and values", async () => {
    mockFetch({ "GET /api/cloud-api/4/templates": [tpl("retomar_conversa", "APPROVED", "Olá {{1}}, pedido {{2}}"), tpl("promo", "PENDING", "x")] });
    const onSend = vi.fn();
    renderWithApp(<TemplatePicker open whatsappId={4} contact={{ name: "Ana", number: "5511", email: null }} onClose={() => {}} onSend={onSend} />);
    await waitFor(() => expect(screen.getByTestId("template-retomar_conversa")).toBeInTheDocument());
    expect(screen.getByTestId("template-promo")).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(screen.getByTestId("template-retomar_conversa"));
    expect(screen.getByTestId("template-send")).toBeDisabled();
    await userEvent.type(screen.getByTestId("template-var-body-1"), "Ana");
    await userEvent.type(screen.getByTestId("template-var-body-2"), "42");
    expect(screen.getByTestId("template-preview")).toHaveTextContent("Olá Ana, pedido 42");
    await userEvent.click(screen.getByTestId("template-send"));
    expect(onSend).toHaveBeenCalledWith({ name: "retomar_conversa", language: "pt_BR", values: { header: {}, body: { "1": "Ana", "2": "42" } } }, "Olá Ana, pedido 42");
  });
});
