import { beforeAll, describe, expect, it } from "vitest";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let opToken: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  opToken = await makeOperator(t, await createTenant(t));
});

describe("/helps", () => {
  it("the operator adds, edits and removes help videos; everyone logged in lists them", async () => {
    const created = await t.call("POST", "/helps", { token: opToken, body: { title: "Conectar o WhatsApp", description: "Passo a passo", video: "dQw4w9WgXcQ" } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await t.call("GET", "/helps/list", { token: a.userToken })).body.map((h: { id: number }) => h.id)).toContain(id);
    const put = await t.call("PUT", `/helps/${id}`, { token: opToken, body: { title: "Conectar", description: "", video: "abc" } });
    expect(put.body).toMatchObject({ title: "Conectar", video: "abc" });
    expect((await t.call("GET", "/helps", { token: a.adminToken })).body.find((h: { id: number }) => h.id === id).title).toBe("Conectar");
    expect((await t.call("DELETE", `/helps/${id}`, { token: opToken })).status).toBe(200);
    expect((await t.call("GET", `/helps/${id}`, { token: opToken })).status).toBe(404);
  });
  it("company admins cannot change helps; bad input stores nothing", async () => {
    const created = await t.call("POST", "/helps", { token: opToken, body: { title: "Filas", video: "x" } });
    expect((await t.call("POST", "/helps", { token: a.adminToken, body: { title: "Meu" } })).status).toBe(403);
    expect((await t.call("PUT", `/helps/${created.body.id}`, { token: a.adminToken, body: { title: "Meu" } })).status).toBe(403);
    expect((await t.call("DELETE", `/helps/${created.body.id}`, { token: a.adminToken })).status).toBe(403);
    expect((await t.call("POST", "/helps", { token: opToken, body: { title: "" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", "/helps", { token: a.adminToken })).body.map((h: { title: string }) => h.title)).toEqual(["Filas"]);
    expect((await t.call("GET", "/helps")).status).toBe(401);
  });
});

describe("logos", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const upload = (ref: string, bytes: Uint8Array, name: string, token = opToken) => {
    const form = new FormData();
    form.append("file", new Blob([bytes]), name);
    return t.app.request(`/api/settings/media-upload?ref=${ref}`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
  };

  it("the operator uploads a PNG for a destination; the public GET serves it", async () => {
    const res = await upload("login", png, "logo.png");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ mensagem: "Arquivo Anexado" });
    const served = await t.app.request("/api/public/logos/login");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    const pub = await t.call("GET", "/public/settings");
    expect(pub.body.logos.login).toMatch(/^\/api\/public\/logos\/login\?v=/);
    expect(pub.body.logos.signup).toBeNull();
  });
  it("an SVG is served with a policy that stops scripts", async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>');
    expect((await upload("favicon", svg, "f.svg")).status).toBe(200);
    const served = await t.app.request("/api/public/logos/favicon");
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(served.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
  it("refuses other formats, unknown destinations, no file, and non-operators", async () => {
    expect((await upload("login", new TextEncoder().encode("GIF89a...."), "x.gif")).status).toBe(400);
    expect((await upload("login", new TextEncoder().encode("<html>"), "x.svg")).status).toBe(400);
    expect((await upload("rodape", png, "x.png")).status).toBe(400);
    expect((await upload("signup", png, "x.png", a.adminToken)).status).toBe(403);
    const none = await t.app.request("/api/settings/media-upload?ref=login", { method: "POST", body: new FormData(), headers: { authorization: `Bearer ${opToken}` } });
    expect(none.status).toBe(400);
    const builtIn = await t.app.request("/api/public/logos/signup");
    expect(builtIn.status).toBe(200);
    expect(builtIn.headers.get("x-logo-source")).toBe("default");
  });
  it("serves the built-in logo for every destination nothing was uploaded for, and 404 for an unknown one", async () => {
    for (const ref of ["signup", "interno", "favicon-256x256", "apple-touch-icon"]) {
      const served = await t.app.request(`/api/public/logos/${ref}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/svg+xml");
      expect(served.headers.get("x-logo-source")).toBe("default");
      expect(await served.text()).toContain("<svg");
    }
    expect((await t.app.request("/api/public/logos/login")).headers.get("x-logo-source")).toBe("uploaded");
    expect((await t.app.request("/api/public/logos/rodape")).status).toBe(404);
    expect((await t.call("GET", "/public/settings")).body.logos.signup).toBeNull();
  });
  it("the app manifest's icons: the built-in PNGs until a usable square logo is set, then the operator's logo", async () => {
    const manifest = async () => {
      const res = await t.app.request("/api/public/manifest.webmanifest");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/manifest+json");
      return (await res.json()) as { name: string; start_url: string; display: string; icons: { src: string; sizes: string; type: string; purpose: string }[] };
    };
    const defaults = await manifest();
    expect(defaults).toMatchObject({ name: "Atende", start_url: "/tickets", display: "standalone" });
    // its words in the browser's language (pt unless en or es comes first); caches keep one per language
    expect(defaults).toMatchObject({ lang: "pt-BR", description: "Atendimento multicanal: WhatsApp, chat do site e mais" });
    const inLanguage = async (header: string) => {
      const res = await t.app.request("/api/public/manifest.webmanifest", { headers: { "accept-language": header } });
      expect(res.headers.get("vary")).toBe("Accept-Language");
      return (await res.json()) as { lang: string; description: string };
    };
    expect(await inLanguage("en-US,en;q=0.9,pt;q=0.8")).toEqual(expect.objectContaining({ lang: "en", description: "Multichannel customer service: WhatsApp, website chat and more" }));
    expect(await inLanguage("es-AR")).toEqual(expect.objectContaining({ lang: "es", description: "Atención multicanal: WhatsApp, chat del sitio y más" }));
    expect(await inLanguage("fr-FR,de;q=0.5")).toEqual(expect.objectContaining({ lang: "pt-BR" }));
    expect(defaults.icons.map((i) => `${i.src} ${i.sizes} ${i.purpose}`)).toEqual([
      "/icons/icon-192.png 192x192 any",
      "/icons/icon-512.png 512x512 any",
      "/icons/maskable-192.png 192x192 maskable",
      "/icons/maskable-512.png 512x512 maskable",
    ]);
    // a PNG's size is read from its IHDR chunk
    const pngOf = (w: number, h: number) => {
      const b = new Uint8Array(33);
      b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      new DataView(b.buffer).setUint32(16, w);
      new DataView(b.buffer).setUint32(20, h);
      return b;
    };
    // too small or not square for an app icon: the built-in icons stay
    expect((await upload("apple-touch-icon", pngOf(64, 64), "a.png")).status).toBe(200);
    expect((await upload("favicon-256x256", pngOf(256, 128), "f.png")).status).toBe(200);
    expect((await manifest()).icons).toEqual(defaults.icons);
    // a square 256 px PNG: the installed app's icon is the operator's logo, served by the public logo route
    expect((await upload("favicon-256x256", pngOf(256, 256), "f.png")).status).toBe(200);
    const withLogo = await manifest();
    expect(withLogo.icons).toEqual([{ src: expect.stringMatching(/^\/api\/public\/logos\/favicon-256x256\?v=/), sizes: "256x256", type: "image/png", purpose: "any" }]);
    const icon = await t.app.request(withLogo.icons[0]!.src);
    expect(icon.status).toBe(200);
    expect(new Uint8Array(await icon.arrayBuffer())).toEqual(pngOf(256, 256));
    // an SVG logo fits any size
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
    expect((await upload("favicon-256x256", svg, "f.svg")).status).toBe(200);
    expect((await manifest()).icons).toEqual([{ src: expect.stringMatching(/^\/api\/public\/logos\/favicon-256x256\?v=/), sizes: "any", type: "image/svg+xml", purpose: "any" }]);
  });
});
