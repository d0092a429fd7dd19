import { Hono, type Context } from "hono";
import * as z from "zod";
import { GraphError, type CloudApiSimulator } from "./cloud-api-simulator";
import { CLOUD_API_SIMULATOR_PAGE } from "./cloud-api-simulator-page";

/**
 * The Cloud API simulator on the local origin (/simulator/cloudapi, local only like the QR simulator):
 * - /simulator/cloudapi               the page (a tab of /simulator)
 * - /simulator/cloudapi/api/*         the people's and tests' controls (customers, numbers, templates)
 * - /simulator/cloudapi/graph/<ver>/* the Graph API endpoints the provider calls (a connection's graphApiUrl)
 */
const customerSchema = z.object({
  phoneNumberId: z.string().min(1),
  from: z.string().min(8).max(20),
  name: z.string().max(100).optional(),
  type: z.enum(["text", "image", "audio", "video", "document", "sticker", "location", "contacts", "reaction", "button", "interactive"]),
  text: z.string().max(4096).optional(),
  mediaBase64: z.string().max(20_000_000).optional(),
  mimeType: z.string().max(200).optional(),
  filename: z.string().max(200).optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  locationName: z.string().max(200).optional(),
  contactName: z.string().max(200).optional(),
  contactPhone: z.string().max(40).optional(),
  messageId: z.string().max(200).optional(),
  emoji: z.string().max(20).optional(),
  replyKind: z.enum(["button_reply", "list_reply"]).optional(),
  replyId: z.string().max(256).optional(),
  timestamp: z.number().int().positive().optional(),
});

export const createCloudApiSimulatorHttp = (sim: CloudApiSimulator) => {
  const app = new Hono().basePath("/simulator/cloudapi");
  app.onError((err, c) => {
    if (err instanceof GraphError) return c.json(err.body(), err.httpStatus as 400);
    if (err instanceof z.ZodError) return c.json({ error: "invalid request", issues: err.issues }, 400);
    return c.json({ error: String(err instanceof Error ? err.message : err) }, 500);
  });
  const json = async (c: Context) => (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
  const origin = (c: Context) => new URL(c.req.url).origin;

  app.get("/", (c) => c.html(CLOUD_API_SIMULATOR_PAGE));
  app.get("/api/state", (c) => c.json({ numbers: sim.numbers(), templates: sim.templates(), chats: sim.chats(), log: sim.webhookLog() }));
  app.post("/api/numbers", async (c) => c.json(sim.addNumber(z.object({ phoneNumberId: z.string().regex(/^\d{5,25}$/).optional(), wabaId: z.string().regex(/^\d{5,25}$/).optional(), verifiedName: z.string().max(100).optional(), displayPhoneNumber: z.string().max(30).optional() }).parse(await json(c)))));
  app.post("/api/numbers/:id/webhook", async (c) => {
    const b = z.object({ url: z.string().url(), verifyToken: z.string().min(1) }).parse(await json(c));
    return c.json(await sim.setWebhook(c.req.param("id"), b.url, b.verifyToken));
  });
  app.post("/api/templates", async (c) => {
    const b = z.object({ wabaId: z.string(), name: z.string().regex(/^[a-z0-9_]{1,512}$/), language: z.string().default("pt_BR"), category: z.string().default("UTILITY"), body: z.string().min(1).max(1024), status: z.string().default("PENDING") }).parse(await json(c));
    return c.json(sim.addTemplate({ wabaId: b.wabaId, name: b.name, language: b.language, category: b.category, status: b.status, components: [{ type: "BODY", text: b.body }] }));
  });
  app.post("/api/templates/:id/status", async (c) => {
    const b = z.object({ status: z.enum(["APPROVED", "PENDING", "REJECTED", "PAUSED", "DISABLED"]) }).parse(await json(c));
    const t = sim.setTemplateStatus(c.req.param("id"), b.status);
    return t ? c.json(t) : c.json({ error: "unknown template" }, 404);
  });
  app.post("/api/messages", async (c) => c.json(await sim.customerSends(customerSchema.parse(await json(c)))));
  app.post("/api/read", async (c) => {
    const b = z.object({ phoneNumberId: z.string(), waId: z.string() }).parse(await json(c));
    return c.json(await sim.customerReads(b.phoneNumberId, b.waId));
  });
  app.post("/api/auto-read", async (c) => {
    const b = z.object({ phoneNumberId: z.string(), waId: z.string(), autoRead: z.boolean() }).parse(await json(c));
    sim.setAutoRead(b.phoneNumberId, b.waId, b.autoRead);
    return c.json({ ok: true });
  });
  app.post("/api/age", async (c) => {
    const b = z.object({ phoneNumberId: z.string(), waId: z.string(), hours: z.number().positive().max(1000) }).parse(await json(c));
    return c.json(sim.ageChat(b.phoneNumberId, b.waId, b.hours));
  });

  // ---- Graph API -----------------------------------------------------------------------------------------
  const auth = (c: Context) => c.req.header("authorization");
  app.get("/graph/:version/media-file/:id", (c) => {
    const m = sim.graphMediaFile(c.req.param("id"), auth(c));
    return new Response(Buffer.from(m.bytes), { headers: { "content-type": m.mimeType, "content-length": String(m.bytes.byteLength) } });
  });
  app.get("/graph/:version/:id/message_templates", (c) => c.json(sim.graphTemplates(c.req.param("id"), auth(c))));
  app.get("/graph/:version/:id", (c) => c.json(sim.graphGet(c.req.param("id"), auth(c), origin(c), c.req.param("version"))));
  app.post("/graph/:version/:id/messages", async (c) => c.json(await sim.graphSend(c.req.param("id"), auth(c), await json(c))));
  app.post("/graph/:version/:id/media", async (c) => {
    const form = await c.req.formData();
    const file = form.get("file");
    if (!(file instanceof Blob)) throw new GraphError(400, 100, "(#100) The parameter file is required.");
    if (form.get("messaging_product") !== "whatsapp") throw new GraphError(400, 100, "(#100) The parameter messaging_product is required.");
    return c.json(sim.graphUpload(c.req.param("id"), auth(c), { bytes: new Uint8Array(await file.arrayBuffer()), type: String(form.get("type") ?? file.type), name: (file as File).name }));
  });
  return app;
};
