import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aTicket } from "../testing/ticket-fixtures";
import { TicketCard } from "./ticket-card";
import { TicketHeader } from "./ticket-header";

/** Issue 31: the ticket list and the conversation show each ticket's channel icon, named for screen readers. */
const CASES = [
  { provider: "messenger", name: "Facebook Messenger" },
  { provider: "instagram", name: "Instagram Direct" },
  { provider: "telegram", name: "Telegram" },
  { provider: "webchat", name: "Chat do site" },
] as const;
const noop = () => undefined;

describe("a ticket's channel icon", { timeout: 30_000 }, () => {
  it("the card and the conversation's header show the icon of the ticket's channel (Messenger, Instagram, Telegram, website chat)", async () => {
    mockFetch({ "GET /api/tags/list": [] });
    renderWithApp(
      <>
        {CASES.map((c, i) => {
          const ticket = aTicket({ id: 10 + i, uuid: `u-${i}`, whatsapp: { id: i + 1, name: `Conexão ${c.provider}`, status: "CONNECTED", provider: c.provider } });
          return (
            <div key={c.provider} data-testid={`case-${c.provider}`}>
              <TicketCard ticket={ticket} selected={false} onOpen={noop} onAccept={noop} onClose={noop} onTransfer={noop} onReopen={noop} />
              <TicketHeader ticket={ticket} onContactClick={noop} />
            </div>
          );
        })}
      </>,
      { route: "/", user: aUser(), plan: aPlan() },
    );
    for (const c of CASES) {
      const box = await screen.findByTestId(`case-${c.provider}`);
      const chip = within(box).getByTestId("ticket-connection");
      expect(chip).toHaveAttribute("data-channel", c.provider);
      expect(chip).toHaveAttribute("title", c.name);
      expect(within(chip).getByTestId("channel-icon")).toHaveAttribute("data-channel", c.provider);
      const header = within(box).getByTestId("header-contact");
      const icon = within(header).getByTestId("channel-icon");
      expect(icon).toHaveAttribute("data-channel", c.provider);
      expect(icon.querySelector("title")?.textContent).toBe(c.name);
    }
  });
});
