import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../testing/fetch-mock";
import { aPlan, aUser } from "../../testing/fixtures";
import { renderWithApp } from "../../testing/render";
import { ConnectionsPage } from "../../features/connections/components/connections-page";

const files = import.meta.glob<{ meta: Record<string, string> }>("../../locales/*/channels.json", { eager: true, import: "default" });

const page = () =>
  mockFetch({
    "GET /api/whatsapp/": [],
    "GET /api/queue": [],
    "GET /api/prompt": { prompts: [] },
    "GET /api/queueIntegration": { queueIntegrations: [] },
    "POST /api/whatsapp": () => reply(200, { id: 9, name: "Loja", provider: "messenger", status: "CONNECTED" }),
  });

describe("the Messenger and Instagram connection forms", { timeout: 30_000 }, () => {
  it("has every Meta string in pt, en and es", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((l) => files[`../../locales/${l}/channels.json`]!.meta);
    for (const other of [en, es]) expect(Object.keys(other!).sort()).toEqual(Object.keys(pt!).sort());
    for (const lng of [pt, en, es]) for (const v of Object.values(lng!)) expect(v).not.toBe("");
  });

  for (const [provider, idKey, id] of [
    ["messenger", "pageId", "100200300400"],
    ["instagram", "instagramAccountId", "17841400000000"],
  ] as const) {
    it(`offers ${provider} with its icon and sends its id, token, app secret and Graph address`, async () => {
      const fetch = page();
      renderWithApp(<ConnectionsPage />, { route: "/connections", user: aUser(), plan: aPlan() });
      await userEvent.click(await screen.findByTestId("add-connection"));
      await userEvent.type(screen.getByTestId("field-name"), "Loja");
      await userEvent.click(screen.getByTestId("field-provider"));
      const option = await screen.findByTestId(`provider-${provider}`);
      expect(option.querySelector("[data-testid=channel-icon]")).toHaveAttribute("data-channel", provider);
      await userEvent.click(option);
      await userEvent.type(await screen.findByTestId(`field-${provider}-${idKey}`), id);
      await userEvent.type(screen.getByTestId(`field-${provider}-pageAccessToken`), "EAAPAGE");
      await userEvent.type(screen.getByTestId(`field-${provider}-appSecret`), "s3cret");
      await userEvent.type(screen.getByTestId(`field-${provider}-graphApiUrl`), "http://localhost:4010");
      await userEvent.click(screen.getByRole("button", { name: /salvar|adicionar/i }));
      await waitFor(() => expect(fetch.calls.some((r) => r.method === "POST")).toBe(true));
      const post = fetch.calls.find((r) => r.method === "POST")!;
      expect(await post.json()).toMatchObject({ name: "Loja", provider, [idKey]: id, pageAccessToken: "EAAPAGE", appSecret: "s3cret", graphApiUrl: "http://localhost:4010" });
    });
  }
});
