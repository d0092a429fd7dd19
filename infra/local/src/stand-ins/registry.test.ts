import { describe, expect, it } from "vitest";
import { createAiSimulator } from "./ai/ai-simulator.http";
import { createCloudApiSimulator } from "./cloud-api/cloud-api-simulator";
import { createCloudApiSimulatorHttp } from "./cloud-api/cloud-api-simulator.http";
import { registerStandIns } from "./local-stand-ins";
import { createStandInRegistry, TABS_PLACEHOLDER } from "./registry";

const page = (title: string) => () => new Response(`<html><body>${TABS_PLACEHOLDER}<h1>${title}</h1></body></html>`, { headers: { "content-type": "text/html; charset=utf-8" } });

describe("stand-in registry", () => {
  const registry = createStandInRegistry()
    .register({ id: "whatsapp", prefix: "/simulator", fetch: page("phones"), tab: { path: "/simulator", order: 0, label: { pt: "Celulares", en: "Phones", es: "Teléfonos" } } })
    .register({ id: "bank", prefix: "/simulator/bank", fetch: page("bank"), tab: { path: "/simulator/bank", order: 20, label: { pt: "Banco", en: "Bank", es: "Banco" } } })
    .register({ id: "hook", prefix: "/simulator/webhooks", fetch: () => Response.json({ ok: true }) });

  it("routes by the longest prefix; WhatsApp's phones take the rest of /simulator", async () => {
    expect(await (await registry.route(new Request("http://x/simulator/bank/api/x"))).text()).toContain("<h1>bank</h1>");
    expect(await (await registry.route(new Request("http://x/simulator/bankrupt"))).text()).toContain("<h1>phones</h1>");
    expect(await (await registry.route(new Request("http://x/simulator/webhooks/a"))).json()).toEqual({ ok: true });
    expect((await registry.route(new Request("http://x/elsewhere"))).status).toBe(404);
  });

  it("builds each page's tab bar from the registered tabs, its own marked, in pt/en/es", async () => {
    const html = await (await registry.route(new Request("http://x/simulator/bank"))).text();
    expect(html).not.toContain(TABS_PLACEHOLDER);
    const tabs = [...html.matchAll(/<a href="([^"]+)" data-testid="tab-([a-z-]+)"( class="active")?/g)].map((m) => [m[1], m[2], Boolean(m[3])]);
    expect(tabs).toEqual([
      ["/simulator", "whatsapp", false],
      ["/simulator/bank", "bank", true],
    ]);
    expect(html).toContain('data-label-en="Phones"');
    expect(html).toContain('data-label-es="Teléfonos"');
  });

  it("refuses a stand-in registered twice or outside /simulator", () => {
    expect(() => registry.register({ id: "bank", prefix: "/simulator/bank2", fetch: page("x") })).toThrow("twice");
    expect(() => createStandInRegistry().register({ id: "x", prefix: "/api/x", fetch: page("x") })).toThrow("under /simulator");
  });
});

describe("the local platform's stand-ins", () => {
  it("every stand-in's page carries the whole tab bar, its own tab marked (issue 35: the tabs are built from the stand-ins)", async () => {
    const cloudApiHttp = createCloudApiSimulatorHttp(createCloudApiSimulator());
    const ai = createAiSimulator();
    const registry = registerStandIns(
      createStandInRegistry().register({ id: "whatsapp", prefix: "/simulator", fetch: page("phones"), tab: { path: "/simulator", order: 0, label: { pt: "Celulares", en: "Phones", es: "Teléfonos" } } }),
      { cloudApi: (req) => cloudApiHttp.fetch(req), ai: (req) => ai.fetch(req), bank: page("bank") },
    );
    const ids = ["whatsapp", "cloudapi", "bank", "ai", "typebot", "dialogflow", "webhooks", "push"];
    expect(registry.tabs().map((t) => t.id)).toEqual(ids);
    for (const tab of registry.tabs()) {
      const html = await (await registry.route(new Request(`http://x${tab.path}`))).text();
      expect(html, tab.id).not.toContain(TABS_PLACEHOLDER);
      const found = [...html.matchAll(/data-testid="tab-([a-z-]+)"( class="active")?/g)].map((m) => [m[1], Boolean(m[2])]);
      expect(found, tab.id).toEqual(ids.map((id) => [id, id === tab.id]));
    }
  });
});
