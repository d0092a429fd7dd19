import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
});

type Option = { id: number; name: string; path: string | null; mediaType: string | null; mediaName: string | null; mediaUrl: string | null };
const create = (token: string, body: Record<string, unknown>) => t.call("POST", "/files", { token, body });
const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const pdf = new TextEncoder().encode("%PDF-1.4 catálogo");
const uploadForm = (pairs: { optionId: number | string; bytes: Uint8Array; name: string; type?: string }[]) => {
  const form = new FormData();
  form.append("typeArch", "fileList");
  for (const p of pairs) {
    form.append("files", new Blob([p.bytes], { type: p.type ?? "application/pdf" }), p.name);
    form.append("mediaType", p.type ?? "application/pdf");
    form.append("name", "ignored");
    form.append("id", String(p.optionId));
  }
  return form;
};
const upload = (id: number, token: string, form: FormData) =>
  t.app.request(`/api/files/uploadList/${id}`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });

describe("file lists", () => {
  it("an admin creates a list with options, uploads their files, edits and deletes it; admins see it live", async () => {
    await t.container.services.sockets.connect("fl-admin", a.adminToken);
    await t.container.services.sockets.connect("fl-user", a.userToken);
    const mark = t.sender.frames.length;
    const made = await create(a.adminToken, { name: "Catálogos", message: "Segue o catálogo", options: [{ name: "Verão" }, { name: "Inverno" }], companyId: b.company.id });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "Catálogos", message: "Segue o catálogo", companyId: a.company.id });
    const [summer, winter] = made.body.options as Option[];
    expect(summer).toMatchObject({ name: "Verão", path: null, mediaType: null });
    expect(winter!.id).not.toBe(summer!.id);

    const res = await upload(made.body.id, a.adminToken, uploadForm([
      { optionId: summer!.id, bytes: pdf, name: "verão 2026.pdf" },
      { optionId: winter!.id, bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), name: "inverno.png", type: "image/png" },
    ]));
    expect(res.status).toBe(200);
    const uploaded = (await res.json()) as { options: Option[] };
    expect(uploaded.options[0]).toMatchObject({ name: "Verão", mediaType: "document", mediaName: "verão_2026.pdf" });
    expect(uploaded.options[1]).toMatchObject({ name: "Inverno", mediaType: "image" });
    expect(uploaded.options[0]!.path!.startsWith(`${a.company.id}/`)).toBe(true);
    const served = await t.app.request(uploaded.options[0]!.mediaUrl!, { headers: { authorization: `Bearer ${a.adminToken}` } });
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdf);

    // editing keeps the uploaded file of a kept option, drops a removed one and adds a new one
    const edited = await t.call("PUT", `/files/${made.body.id}`, {
      token: a.adminToken,
      body: { name: "Catálogos 2026", message: "Novos catálogos", options: [{ id: summer!.id, name: "Verão 26", path: "999/x/roubado.pdf" }, { name: "Outono" }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.options).toHaveLength(2);
    expect(edited.body.options[0]).toMatchObject({ id: summer!.id, name: "Verão 26", path: uploaded.options[0]!.path });
    expect(edited.body.options[1]).toMatchObject({ name: "Outono", path: null });
    expect(edited.body.options[1].id).not.toBe(winter!.id);
    expect((await t.call("GET", `/files/${made.body.id}`, { token: a.adminToken })).body.name).toBe("Catálogos 2026");

    expect((await t.call("DELETE", `/files/${made.body.id}`, { token: a.adminToken })).status).toBe(200);
    expect((await t.call("GET", `/files/${made.body.id}`, { token: a.adminToken })).status).toBe(404);

    const frames = t.sender.frames.slice(mark);
    const adminFrames = frames.filter((f) => f.connectionId === "fl-admin").map((f) => f.frame as { channel: string; event: string; data: { action: string } });
    expect(adminFrames.map((f) => f.channel)).toContain(`company-${a.company.id}-file`);
    expect(adminFrames.map((f) => f.data.action)).toEqual(["create", "update", "update", "delete"]);
    expect(frames.filter((f) => f.connectionId === "fl-user")).toEqual([]);
  });

  it("refuses a short name or a missing message, storing nothing", async () => {
    const c = await createTenant(t);
    expect(await create(c.adminToken, { name: "ab", message: "x" })).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    expect((await create(c.adminToken, { name: "Lista boa", message: "   " })).body.error).toBe("ERR_VALIDATION");
    expect((await create(c.adminToken, { name: "Lista boa" })).body.error).toBe("ERR_VALIDATION");
    expect((await create(c.adminToken, { name: "Lista boa", message: "x", options: "não" })).body.error).toBe("ERR_VALIDATION");
    const ok = await create(c.adminToken, { name: "Lista boa", message: "x" });
    expect((await t.call("PUT", `/files/${ok.body.id}`, { token: c.adminToken, body: { name: "a", message: "y" } })).body.error).toBe("ERR_VALIDATION");
    const listed = await t.call("GET", "/files", { token: c.adminToken });
    expect(listed.body).toEqual({ files: [expect.objectContaining({ name: "Lista boa", message: "x", options: [] })], hasMore: false });
  });

  it("checks uploads: allowed types only, a known option, a file present", async () => {
    const made = await create(a.adminToken, { name: "Uploads", message: "m", options: [{ name: "um" }] });
    const id = made.body.id as number;
    const optionId = made.body.options[0].id as number;
    expect((await upload(id, a.adminToken, uploadForm([{ optionId, bytes: new Uint8Array([1]), name: "virus.exe", type: "application/x-msdownload" }]))).status).toBe(400);
    expect((await upload(id, a.adminToken, uploadForm([{ optionId, bytes: new Uint8Array([1]), name: "pagina.html", type: "text/html" }]))).status).toBe(400);
    expect((await upload(id, a.adminToken, uploadForm([{ optionId: 999, bytes: pdf, name: "a.pdf" }]))).status).toBe(400);
    expect((await upload(id, a.adminToken, uploadForm([{ optionId: "x", bytes: pdf, name: "a.pdf" }]))).status).toBe(400);
    expect((await upload(id, a.adminToken, uploadForm([{ optionId, bytes: new Uint8Array([]), name: "vazio.pdf" }]))).status).toBe(400);
    // no files at all is a save with nothing to attach (the spec's dialog always posts): the list, unchanged
    const nothing = await upload(id, a.adminToken, new FormData());
    expect(nothing.status).toBe(200);
    expect(await nothing.json()).toMatchObject({ id, options: [{ id: optionId, path: null }] });
    expect((await t.call("GET", `/files/${id}`, { token: a.adminToken })).body.options[0].path).toBeNull();
    expect((await upload(id, a.adminToken, uploadForm([{ optionId, bytes: pdf, name: "ok.pdf" }]))).status).toBe(200);
  });

  it("is for admins: attendants get 403 on every route", async () => {
    const made = await create(a.adminToken, { name: "Só admin", message: "m", options: [{ name: "um" }] });
    const id = made.body.id as number;
    const asUser = { token: a.userToken };
    expect((await t.call("GET", "/files", asUser)).status).toBe(403);
    expect((await t.call("GET", `/files/${id}`, asUser)).status).toBe(403);
    expect((await create(a.userToken, { name: "Do atendente", message: "m" })).status).toBe(403);
    expect((await t.call("PUT", `/files/${id}`, { ...asUser, body: { name: "trocado", message: "m" } })).status).toBe(403);
    expect((await t.call("DELETE", `/files/${id}`, asUser)).status).toBe(403);
    expect((await upload(id, a.userToken, uploadForm([{ optionId: made.body.options[0].id, bytes: pdf, name: "a.pdf" }]))).status).toBe(403);
    expect((await t.call("GET", `/files/${id}`, { token: a.adminToken })).body).toMatchObject({ name: "Só admin", options: [{ path: null }] });
    expect((await t.call("GET", "/files")).status).toBe(401);
  });

  it("keeps each company's lists and files apart", async () => {
    const made = await create(a.adminToken, { name: "Segredo de A", message: "m", options: [{ name: "um" }] });
    const id = made.body.id as number;
    const optionId = made.body.options[0].id as number;
    const up = (await (await upload(id, a.adminToken, uploadForm([{ optionId, bytes: pdf, name: "contrato.pdf" }]))).json()) as { options: Option[] };
    const asB = { token: b.adminToken };
    expect((await t.call("GET", `/files/${id}`, asB)).status).toBe(404);
    expect((await t.call("PUT", `/files/${id}`, { ...asB, body: { name: "roubado", message: "m" } })).status).toBe(404);
    expect((await t.call("DELETE", `/files/${id}`, asB)).status).toBe(404);
    expect((await upload(id, b.adminToken, uploadForm([{ optionId, bytes: pdf, name: "troca.pdf" }]))).status).toBe(404);
    expect(names((await t.call("GET", `/files?searchParam=segredo&companyId=${a.company.id}`, asB)).body.files)).toEqual([]);
    expect((await t.app.request(up.options[0]!.mediaUrl!, { headers: { authorization: `Bearer ${b.adminToken}` } })).status).toBe(404);
    const still = await t.call("GET", `/files/${id}`, { token: a.adminToken });
    expect(still.body).toMatchObject({ name: "Segredo de A", options: [{ path: up.options[0]!.path }] });
  });

  it("searches by name and pages by pageNumber, A-Z", async () => {
    const c = await createTenant(t);
    for (let i = 1; i <= 22; i++) await create(c.adminToken, { name: `Lista ${String(i).padStart(2, "0")}`, message: "m" });
    await create(c.adminToken, { name: "Outra coisa", message: "m" });
    const p1 = await t.call("GET", "/files?searchParam=LISTA&pageNumber=1", { token: c.adminToken });
    const p2 = await t.call("GET", "/files?searchParam=lista&pageNumber=2", { token: c.adminToken });
    expect(p1.body.files).toHaveLength(20);
    expect(p1.body.hasMore).toBe(true);
    expect(p1.body.files[0].name).toBe("Lista 01");
    expect(names(p2.body.files)).toEqual(["Lista 21", "Lista 22"]);
    expect(p2.body.hasMore).toBe(false);
  });
});
