import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../../testing/factories";
import { createTestApp, type TestApp } from "../../../testing/test-app";
import { makeOperator } from "../../../testing/operator";
import { adminTickets, customerMessage, deliver } from "../../../testing/inbox-fixtures";

/**
 * Media by content (docs/security.md "Media"): what a user uploads is typed from its bytes and checked against the
 * destination's allow-list; what is served can never run on the app's origin.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let opToken: string;
const mediaDir = mkdtempSync(join(tmpdir(), "atende-media-int-"));
let n = 0;

const SVG = new TextEncoder().encode(
  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="fetch('/api/xss-marker')"><script>window.__xss = 1</script><rect width="9" height="9"/></svg>`,
);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n");
const EXE = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]);
const EMPTY = new Uint8Array(0);

/** Every file the media store holds (sidecars included). */
const storedFiles = (): string[] => readdirSync(mediaDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
const errorOf = async (res: Response) => ((await res.json()) as { error?: string }).error;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const form = (field: string, bytes: Uint8Array, name: string, type: string, extra: Record<string, string> = {}) => {
  const f = new FormData();
  f.append(field, new File([bytes], name, { type }));
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  return f;
};

beforeAll(async () => {
  t = await createTestApp({ INBOX_DIRECTORY_TTL_MS: "0", MEDIA_DIR: mediaDir });
  a = await createTenant(t);
  b = await createTenant(t);
  opToken = await makeOperator(t, await createTenant(t));
});

const openTicket = async () => {
  const number = `55119${String(60000000 + ++n)}`;
  await deliver(t, customerMessage(a, { number, body: "oi" }));
  const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
  await t.call("PUT", `/tickets/${tk.id}`, { token: a.adminToken, body: { status: "open" } });
  return { ...tk, jid: `${number}@s.whatsapp.net` };
};
const sendFile = (ticketId: number, bytes: Uint8Array, name: string, type: string, token = a.adminToken) =>
  t.app.request(`/api/messages/${ticketId}`, { method: "POST", body: form("medias", bytes, name, type), headers: bearer(token) });

describe("a message's media", () => {
  it("an SVG declared as an image is stored and sent as a document, and served as an attachment that cannot run", async () => {
    const tk = await openTicket();
    for (const [name, declared] of [
      ["foto.svg", "image/svg+xml"],
      ["foto.png", "image/png"],
    ] as const) {
      const res = await sendFile(tk.id, SVG, name, declared);
      expect(res.status).toBe(201);
      const m = (await res.json()) as { mediaType: string; mediaUrl: string };
      expect(m.mediaType).toBe("application");
      expect(t.commands.sent.at(-1)).toMatchObject({ type: "send", media: { kind: "document", mimetype: "image/svg+xml" } });

      const served = await t.app.request(m.mediaUrl, { headers: bearer(a.adminToken) });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("application/octet-stream");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-disposition")).toMatch(/^attachment; filename="foto\.(svg|png)"/);
      const csp = served.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("sandbox");
      expect(csp).not.toMatch(/script-src/);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(SVG);
    }
  });

  it("a PNG is an image, served inline as image/png; a PDF is a document, downloaded", async () => {
    const tk = await openTicket();
    const png = (await (await sendFile(tk.id, PNG, "foto.jpg", "image/jpeg")).json()) as { mediaType: string; mediaUrl: string };
    expect(png.mediaType).toBe("image");
    const img = await t.app.request(png.mediaUrl, { headers: bearer(a.adminToken) });
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("content-disposition")).toMatch(/^inline/);
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect(img.headers.get("content-security-policy")).toContain("sandbox");

    const pdf = (await (await sendFile(tk.id, PDF, "boleto.pdf", "application/pdf")).json()) as { mediaType: string; mediaUrl: string };
    expect(pdf.mediaType).toBe("application");
    const doc = await t.app.request(pdf.mediaUrl, { headers: bearer(a.adminToken) });
    expect(doc.headers.get("content-type")).toBe("application/pdf");
    expect(doc.headers.get("content-disposition")).toMatch(/^attachment/);
    // another company's user with the same URL gets nothing
    expect((await t.app.request(pdf.mediaUrl, { headers: bearer(b.adminToken) })).status).toBe(404);
  });

  it("refuses an .exe (whatever it is called), an empty file, and a batch holding one: nothing stored, nothing sent", async () => {
    const tk = await openTicket();
    const files = storedFiles().length;
    const sends = () => t.commands.sent.filter((c) => c.type === "send").length;
    const commands = sends();
    const before = (await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken })).body.messages.length;

    const exe = await sendFile(tk.id, EXE, "foto.jpg", "image/jpeg");
    expect(exe.status).toBe(400);
    expect(await exe.json()).toMatchObject({ error: "ERR_INVALID_MEDIA_TYPE" });
    const empty = await sendFile(tk.id, EMPTY, "nada.pdf", "application/pdf");
    expect(await empty.json()).toMatchObject({ error: "ERR_EMPTY_FILE" });
    const batch = new FormData();
    batch.append("medias", new File([PNG], "ok.png", { type: "image/png" }));
    batch.append("medias", new File([EXE], "setup.exe", { type: "application/x-msdownload" }));
    const mixed = await t.app.request(`/api/messages/${tk.id}`, { method: "POST", body: batch, headers: bearer(a.adminToken) });
    expect(await mixed.json()).toMatchObject({ error: "ERR_INVALID_MEDIA_TYPE" });

    expect(storedFiles()).toHaveLength(files);
    expect(sends()).toBe(commands);
    expect((await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken })).body.messages).toHaveLength(before);
  });

  it("a customer's 'image' whose bytes are an SVG is stored as a document", async () => {
    const number = `55119${String(60000000 + ++n)}`;
    const id = `SVGIMG${n}`;
    await deliver(
      t,
      customerMessage(a, { number, id, body: "", extra: { type: "image", media: { key: `${a.company.id}/2026/01/abc-foto.jpg`, mimetype: "image/svg+xml", filename: "foto.jpg" } } }),
    );
    const tk = (await adminTickets(t, a)).find((x) => x.contact.number === number)!;
    const list = await t.call("GET", `/messages/${tk.id}`, { token: a.adminToken });
    expect(list.body.messages.find((m: { id: string }) => m.id === id)).toMatchObject({ mediaType: "application" });
  });
});

describe("uploads per destination", () => {
  const post = (path: string, f: FormData, token: string) => t.app.request(`/api${path}`, { method: "POST", body: f, headers: bearer(token) });
  const refusedEverywhere = async (path: string, field: string, token: string, extra: Record<string, string> = {}) => {
    const files = storedFiles().length;
    const exe = await post(path, form(field, EXE, "manual.pdf", "application/pdf", extra), token);
    expect([exe.status, await exe.json()]).toEqual([400, expect.objectContaining({ error: "ERR_INVALID_MEDIA_TYPE" })]);
    const named = await post(path, form(field, EXE, "setup.exe", "application/x-msdownload", extra), token);
    expect(await errorOf(named)).toBe("ERR_INVALID_MEDIA_TYPE");
    const empty = await post(path, form(field, EMPTY, "vazio.png", "image/png", extra), token);
    expect([empty.status, await empty.json()]).toEqual([400, expect.objectContaining({ error: "ERR_EMPTY_FILE" })]);
    const unknown = await post(path, form(field, new Uint8Array([1, 2, 3, 0, 250]), "foto.png", "image/png", extra), token);
    expect(await errorOf(unknown)).toBe("ERR_INVALID_MEDIA_TYPE");
    expect(storedFiles()).toHaveLength(files);
  };

  it("queue media: documents, images, audio and video; no programs, empty files, unknown bytes or markup", async () => {
    const q = a.queues[0]!;
    await refusedEverywhere(`/queue/${q.id}/media-upload`, "file", a.adminToken);
    const svg = await post(`/queue/${q.id}/media-upload`, form("file", SVG, "menu.png", "image/png"), a.adminToken);
    expect(await errorOf(svg)).toBe("ERR_INVALID_MEDIA_TYPE");
    expect((await t.call("GET", `/queue/${q.id}`, { token: a.adminToken })).body.mediaPath ?? null).toBeNull();
    expect((await post(`/queue/${q.id}/media-upload`, form("file", PDF, "catalogo.pdf", "application/pdf"), a.adminToken)).status).toBe(200);
  });

  it("queue option media", async () => {
    const node = await t.call("POST", "/queue-options", { token: a.adminToken, body: { queueId: a.queues[0]!.id, title: "Catálogo" } });
    await refusedEverywhere(`/queue-options/${node.body.id}/media-upload`, "file", a.adminToken);
    expect((await post(`/queue-options/${node.body.id}/media-upload`, form("file", PNG, "mapa.png", "image/png"), a.adminToken)).status).toBe(200);
  });

  it("quick messages", async () => {
    const qm = await t.call("POST", "/quick-messages", { token: a.adminToken, body: { shortcode: `arq${n++}`, message: "Segue", geral: true } });
    await refusedEverywhere(`/quick-messages/${qm.body.id}/media-upload`, "file", a.adminToken, { typeArch: "quickMessage" });
    const svg = await post(`/quick-messages/${qm.body.id}/media-upload`, form("file", SVG, "x.svg", "image/svg+xml"), a.adminToken);
    expect(await errorOf(svg)).toBe("ERR_INVALID_MEDIA_TYPE");
    expect((await post(`/quick-messages/${qm.body.id}/media-upload`, form("file", PDF, "tabela.pdf", "application/pdf"), a.adminToken)).status).toBe(200);
  });

  it("campaigns", async () => {
    const c = await t.call("POST", "/campaigns", {
      token: a.adminToken,
      body: { name: "Promo", message1: "Oi", message2: "", confirmation: false, scheduledAt: null, whatsappId: a.whatsapp.id, contactListId: null, tagListId: "Nenhuma" },
    });
    expect(c.status).toBe(200);
    await refusedEverywhere(`/campaigns/${c.body.id}/media-upload`, "file", a.adminToken);
    expect((await t.call("GET", `/campaigns/${c.body.id}`, { token: a.adminToken })).body.mediaPath ?? null).toBeNull();
    expect((await post(`/campaigns/${c.body.id}/media-upload`, form("file", PDF, "folheto.pdf", "application/pdf"), a.adminToken)).status).toBe(200);
  });

  it("file lists: the name's kind must be the content's (a 'photo' that is a program or an SVG is refused)", async () => {
    const list = await t.call("POST", "/files", { token: a.adminToken, body: { name: "Catálogos", message: "Escolha", options: [{ name: "Foto" }] } });
    const optionId = String(list.body.options[0].id);
    const files = storedFiles().length;
    for (const [bytes, name] of [
      [EXE, "foto.png"],
      [SVG, "foto.png"],
      [PDF, "foto.png"],
      [EMPTY, "foto.png"],
    ] as const) {
      const f = new FormData();
      f.append("files", new File([bytes], name, { type: "image/png" }));
      f.append("id", optionId);
      const res = await post(`/files/uploadList/${list.body.id}`, f, a.adminToken);
      expect(res.status).toBe(400);
      expect(["ERR_INVALID_MEDIA_TYPE", "ERR_EMPTY_FILE"]).toContain(await errorOf(res));
    }
    expect(storedFiles()).toHaveLength(files);
  });

  it("announcements (operator): PNG or JPEG only, by content", async () => {
    const made = await t.call("POST", "/announcements", { token: opToken, body: { title: "Aviso", text: "Manutenção", priority: 1, status: true } });
    expect(made.status).toBe(200);
    await refusedEverywhere(`/announcements/${made.body.id}/media-upload`, "file", opToken);
    const svg = await post(`/announcements/${made.body.id}/media-upload`, form("file", SVG, "aviso.png", "image/png"), opToken);
    expect(await errorOf(svg)).toBe("ERR_INVALID_MEDIA_TYPE");
    expect((await post(`/announcements/${made.body.id}/media-upload`, form("file", PNG, "aviso.png", "image/png"), opToken)).status).toBe(200);
    const served = await t.app.request(`/api/announcements/${made.body.id}/media`, { headers: bearer(a.userToken) });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("logos (operator): PNG, ICO or SVG; an SVG logo is served sandboxed", async () => {
    await refusedEverywhere("/settings/media-upload?ref=login", "file", opToken);
    expect((await post("/settings/media-upload?ref=login", form("file", SVG, "logo.svg", "image/svg+xml"), opToken)).status).toBe(200);
    const served = await t.app.request("/api/public/logos/login");
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toMatch(/default-src 'none'.*sandbox/);
  });
});

describe("API responses", () => {
  it("carry nosniff, no framing, the referrer and permissions policies, and a CSP that lets nothing run", async () => {
    for (const res of [await t.app.request("/api/version"), await t.app.request("/api/tickets"), await t.app.request("/api/nowhere")]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(self\)/);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    }
  });
});
