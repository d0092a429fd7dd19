import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CHANNELS } from "@atende/shared/domain/channels/channel-providers";
import { mockFetch, reply } from "../../testing/fetch-mock";
import { aPlan, aUser } from "../../testing/fixtures";
import { renderWithApp } from "../../testing/render";
import { ConnectionsPage } from "../../features/connections/components/connections-page";
import { ChannelIcon } from "./channel-icon";

const files = import.meta.glob<{ name: Record<string, string>; telegram: Record<string, string> }>("../../locales/*/channels.json", { eager: true, import: "default" });

describe("channel icon and the Telegram connection form", { timeout: 30_000 }, () => {
  it("draws one named icon per channel", async () => {
    mockFetch({});
    renderWithApp(
      <>
        {CHANNELS.map((c) => (
          <ChannelIcon key={c} channel={c} />
        ))}
      </>,
      { route: "/", user: aUser(), plan: aPlan() },
    );
    const icons = await screen.findAllByTestId("channel-icon");
    expect(icons.map((i) => i.getAttribute("data-channel"))).toEqual([...CHANNELS]);
    expect(icons.map((i) => i.querySelector("title")?.textContent)).toEqual([
      "WhatsApp por QR code",
      "API oficial do WhatsApp (Cloud API)",
      "Telegram",
      "Facebook Messenger",
      "Instagram Direct",
      "Chat do site",
    ]);
  });

  it("has every channels string in pt, en and es", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((l) => files[`../../locales/${l}/channels.json`]!);
    for (const other of [en, es]) {
      expect(Object.keys(other!.name).sort()).toEqual(Object.keys(pt!.name).sort());
      expect(Object.keys(other!.telegram).sort()).toEqual(Object.keys(pt!.telegram).sort());
    }
    for (const lng of [pt, en, es]) for (const v of [...Object.values(lng!.name), ...Object.values(lng!.telegram)]) expect(v).not.toBe("");
  });

  it("offers Telegram in the provider picker with its icon and sends its token and API address", async () => {
    const fetch = mockFetch({
      "GET /api/whatsapp/": [],
      "GET /api/queue": [],
      "GET /api/prompt": { prompts: [] },
      "GET /api/queueIntegration": { queueIntegrations: [] },
      "POST /api/whatsapp": () => reply(200, { id: 9, name: "Bot", provider: "telegram", status: "CONNECTED" }),
    });
    renderWithApp(<ConnectionsPage />, { route: "/connections", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByTestId("add-connection"));
    await userEvent.type(screen.getByTestId("field-name"), "Bot da loja");
    await userEvent.click(screen.getByTestId("field-provider"));
    const option = await screen.findByTestId("provider-telegram");
    expect(within(option).getByTestId("channel-icon")).toHaveAttribute("data-channel", "telegram");
    await userEvent.click(option);
    await userEvent.type(await screen.findByTestId("field-telegram-botToken"), "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef");
    await userEvent.type(screen.getByTestId("field-telegram-telegramApiUrl"), "http://localhost:9999");
    await userEvent.click(screen.getByRole("button", { name: /salvar|adicionar/i }));
    await waitFor(() => expect(fetch.calls.some((r) => r.method === "POST")).toBe(true));
    const post = fetch.calls.find((r) => r.method === "POST")!;
    expect(await post.json()).toMatchObject({ name: "Bot da loja", provider: "telegram", botToken: "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef", telegramApiUrl: "http://localhost:9999" });
  });
});
