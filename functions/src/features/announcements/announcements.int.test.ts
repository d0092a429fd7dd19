import { beforeAll, describe, expect, it } from "vitest";
import { runJob } from "../../app/jobs-consumer";
import { makeOperator } from "../../testing/operator";
import { createTenant, type Tenant } from "../../testing/factories";
import { createTestApp, type TestApp } from "../../testing/test-app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let op: Tenant;
let opToken: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t);
  b = await createTenant(t);
  op = await createTenant(t);
  opToken = await makeOperator(t, op);
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 4, 5]);
const create = (body: Record<string, unknown>, token = opToken) => t.call("POST", "/announcements", { token, body });
const list = async (token: string, query = "") => (await t.call("GET", `/announcements${query}`, { token })).body as { records: { id: number; title: string }[]; hasMore: boolean };
const titles = (rows: { title: string }[]) => rows.map((r) => r.title);
const upload = (id: number, bytes: Uint8Array, name: string, token = opToken) => {
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  return t.app.request(`/api/announcements/${id}/media-upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
};
/** Runs the queued fan-out jobs (SQS does this in AWS and on one machine). */
const drainJobs = async () => {
  while (t.jobs.pending.length) await runJob(t.container, t.jobs.pending.shift()!.job);
};

describe("announcements", () => {
  it("a super user creates, edits and deletes; every company's users see it live", async () => {
    await t.container.services.sockets.connect("ann-a", a.userToken);
    await t.container.services.sockets.connect("ann-b", b.adminToken);
    const mark = t.sender.frames.length;
    const made = await create({ title: "Manutenção sábado", text: "O sistema para às 22h.", priority: 1 });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ title: "Manutenção sábado", text: "O sistema para às 22h.", priority: 1, status: true, mediaPath: null, mediaName: null, mediaUrl: null });
    const id = made.body.id as number;
    // defaults: priority 3 (low), active
    const plain = await create({ title: "Novidade", text: "Relatórios novos" });
    expect(plain.body).toMatchObject({ priority: 3, status: true });

    expect(titles((await list(a.userToken)).records)).toEqual(["Novidade", "Manutenção sábado"]);
    expect(titles((await list(b.adminToken)).records)).toEqual(["Novidade", "Manutenção sábado"]);
    expect((await t.call("GET", `/announcements/${id}`, { token: b.userToken })).body.title).toBe("Manutenção sábado");

    const edited = await t.call("PUT", `/announcements/${id}`, { token: opToken, body: { text: "O sistema para às 23h.", priority: 2 } });
    expect(edited.body).toMatchObject({ title: "Manutenção sábado", text: "O sistema para às 23h.", priority: 2 });
    expect((await t.call("DELETE", `/announcements/${plain.body.id}`, { token: opToken })).status).toBe(200);
    expect((await t.call("GET", `/announcements/${plain.body.id}`, { token: opToken })).status).toBe(404);

    await drainJobs();
    const framesOf = (conn: string) =>
      t.sender.frames
        .slice(mark)
        .filter((f) => f.connectionId === conn)
        .map((f) => f.frame as { event: string; data: { action: string; record?: { title: string } } });
    for (const conn of ["ann-a", "ann-b"]) {
      const frames = framesOf(conn);
      expect(frames.every((f) => f.event === "announcement")).toBe(true);
      expect(frames.map((f) => f.data.action)).toEqual(["create", "create", "update", "delete"]);
      expect(frames[0]!.data.record?.title).toBe("Manutenção sábado");
    }
  });

  it("inactive announcements are listed only to super users, and reach the others as a delete", async () => {
    const c = await createTenant(t);
    await t.container.services.sockets.connect("ann-c", c.userToken);
    const hidden = await create({ title: "Rascunho interno", text: "ainda não", status: false });
    const shown = await create({ title: "Publicado", text: "para todos" });
    expect(titles((await list(c.userToken, "?searchParam=Rascunho")).records)).toEqual([]);
    expect(titles((await list(opToken, "?searchParam=rascunho")).records)).toEqual(["Rascunho interno"]);
    expect((await t.call("GET", `/announcements/${hidden.body.id}`, { token: c.adminToken })).status).toBe(404);
    await drainJobs();

    const mark = t.sender.frames.length;
    await t.call("PUT", `/announcements/${shown.body.id}`, { token: opToken, body: { status: false } });
    await drainJobs();
    const frames = t.sender.frames.slice(mark).filter((f) => f.connectionId === "ann-c").map((f) => f.frame as { data: unknown });
    expect(frames.map((f) => f.data)).toEqual([{ action: "delete", id: shown.body.id }]);
    expect(titles((await list(c.userToken)).records)).not.toContain("Publicado");

    await t.call("PUT", `/announcements/${hidden.body.id}`, { token: opToken, body: { status: true } });
    expect(titles((await list(c.userToken)).records)).toContain("Rascunho interno");
  });

  it("only super users write: admins and attendants get 403 and nothing changes", async () => {
    const made = await create({ title: "Só operador", text: "texto" });
    const id = made.body.id as number;
    for (const token of [a.adminToken, a.userToken]) {
      expect((await create({ title: "Meu aviso", text: "x" }, token)).status).toBe(403);
      expect((await t.call("PUT", `/announcements/${id}`, { token, body: { title: "trocado" } })).status).toBe(403);
      expect((await t.call("DELETE", `/announcements/${id}`, { token })).status).toBe(403);
      expect((await upload(id, png, "a.png", token)).status).toBe(403);
      expect((await t.call("DELETE", `/announcements/${id}/media-upload`, { token })).status).toBe(403);
    }
    expect((await t.call("GET", `/announcements/${id}`, { token: a.userToken })).body).toMatchObject({ title: "Só operador", mediaPath: null });
    expect(titles((await list(opToken, "?searchParam=meu aviso")).records)).toEqual([]);
    expect((await t.call("GET", "/announcements")).status).toBe(401);
  });

  it("refuses a missing title or text, or a bad priority, storing nothing", async () => {
    const before = (await list(opToken)).records.length;
    for (const body of [{ text: "sem título" }, { title: "sem texto" }, { title: "  ", text: "x" }, { title: "x", text: "y", priority: 4 }, { title: "x", text: "y", status: "sim" }]) {
      expect(await create(body)).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION" } });
    }
    const made = await create({ title: "Válido", text: "ok" });
    expect((await t.call("PUT", `/announcements/${made.body.id}`, { token: opToken, body: { title: "" } })).body.error).toBe("ERR_VALIDATION");
    expect((await t.call("GET", `/announcements/${made.body.id}`, { token: opToken })).body.title).toBe("Válido");
    expect((await list(opToken)).records.length).toBe(before + 1);
    expect((await t.call("GET", "/announcements/abc", { token: opToken })).status).toBe(404);
  });

  it("attaches a png or jpeg image every user can load; other types are refused", async () => {
    const made = await create({ title: "Com imagem", text: "veja" });
    const id = made.body.id as number;
    expect((await upload(id, new TextEncoder().encode("GIF89a...."), "x.gif")).status).toBe(400);
    // a png renamed .gif, and a text file renamed .png
    expect((await upload(id, png, "x.gif")).status).toBe(400);
    expect((await upload(id, new TextEncoder().encode("<html>"), "x.png")).status).toBe(400);
    expect((await t.call("GET", `/announcements/${id}`, { token: opToken })).body.mediaPath).toBeNull();

    const res = await upload(id, jpeg, "foto aviso.jpeg");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mediaName: string; mediaUrl: string };
    expect(body.mediaName).toBe("foto_aviso.jpeg");
    const img = await t.app.request(body.mediaUrl, { headers: { authorization: `Bearer ${b.userToken}` } });
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(jpeg);
    // the company media route does not serve platform keys
    const raw = await t.app.request(`/api/media/${encodeURIComponent((await t.call("GET", `/announcements/${id}`, { token: opToken })).body.mediaPath)}`, {
      headers: { authorization: `Bearer ${b.userToken}` },
    });
    expect(raw.status).toBe(404);

    expect((await upload(id, png, "nova.png")).status).toBe(200);
    const removed = await t.call("DELETE", `/announcements/${id}/media-upload`, { token: opToken });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expect((await t.app.request(`/api/announcements/${id}/media`, { headers: { authorization: `Bearer ${b.userToken}` } })).status).toBe(404);

    // the image of an inactive announcement is not served to other companies
    await upload(id, png, "nova.png");
    await t.call("PUT", `/announcements/${id}`, { token: opToken, body: { status: false } });
    expect((await t.app.request(`/api/announcements/${id}/media`, { headers: { authorization: `Bearer ${b.userToken}` } })).status).toBe(404);
  });

  it("pages by pageNumber, newest first", async () => {
    const tag = `pag${Date.now()}`;
    for (let i = 1; i <= 23; i++) await create({ title: `${tag} ${String(i).padStart(2, "0")}`, text: "x" });
    const p1 = await list(a.userToken, `?searchParam=${tag}&pageNumber=1`);
    const p2 = await list(a.userToken, `?searchParam=${tag}&pageNumber=2`);
    expect(p1.records.length).toBe(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.records[0]!.title).toBe(`${tag} 23`);
    expect(titles(p2.records)).toEqual([`${tag} 03`, `${tag} 02`, `${tag} 01`]);
    expect(p2.hasMore).toBe(false);
  });
});
