import { mediaResponseHeaders } from "@atende/shared/domain/media/media-sniff";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import QRCode from "qrcode";
import * as z from "zod";
import { SimulatorError, type ConnectionRef, type SimulatorNetwork } from "./network";
import { SIMULATOR_PAGE } from "./whatsapp-page";

/**
 * The WhatsApp phones' page and HTTP API (mounted at /simulator on the platform's origin locally).
 * Tests drive customers through the API; a person plays them on the page.
 */

/**
 * The largest request body the page and API read (an attachment a customer sends, base64): 32 MiB. Past it the
 * request is refused with 413 before it is buffered (a 300 MiB body used to be read whole).
 */
export const SIMULATOR_MAX_BODY_BYTES = 32 * 1024 * 1024;
const refSchema = z.union([
  z.object({ companyId: z.coerce.number().int().positive(), whatsappId: z.coerce.number().int().positive() }),
  z.object({ to: z.string().min(8) }),
]);

const messageSchema = z.object({
  type: z.string().min(1),
  body: z.string().max(65_000).optional(),
  mediaBase64: z.string().optional(),
  mimetype: z.string().optional(),
  filename: z.string().max(200).optional(),
  quotedId: z.string().optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  contactName: z.string().optional(),
  contactNumber: z.string().optional(),
  targetId: z.string().optional(),
  emoji: z.string().optional(),
  isForwarded: z.boolean().optional(),
  isVideo: z.boolean().optional(),
  name: z.string().optional(),
});

export const createSimulatorHttp = (network: SimulatorNetwork, opts: { maxBodyBytes?: number } = {}) => {
  const app = new Hono().basePath("/simulator");
  app.use(bodyLimit({ maxSize: opts.maxBodyBytes ?? SIMULATOR_MAX_BODY_BYTES, onError: (c) => c.json({ error: "request body too large" }, 413) }));

  app.onError((err, c) => {
    if (err instanceof SimulatorError) return c.json({ error: err.message }, err.status);
    if (err instanceof z.ZodError) return c.json({ error: "invalid request", issues: err.issues }, 400);
    return c.json({ error: String(err instanceof Error ? err.message : err) }, 500);
  });

  const body = async (c: Context) => {
    try {
      return (await c.req.json()) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const refOf = (input: Record<string, unknown>): ConnectionRef => refSchema.parse(input);

  app.get("/", (c) => c.html(SIMULATOR_PAGE));

  app.get("/api/connections", async (c) =>
    c.json(
      await Promise.all(
        network.connections().map(async (x) => ({ ...x, qrImage: x.qr ? await QRCode.toDataURL(x.qr, { margin: 1, width: 240 }) : null })),
      ),
    ),
  );

  /** `passkey: true`: the phone is passkey-walled (linking stops at WhatsApp's passkey_prologue_request) */
  app.post("/api/connections/:companyId/:whatsappId/scan", async (c) => {
    const input = await body(c);
    const ref = { companyId: Number(c.req.param("companyId")), whatsappId: Number(c.req.param("whatsappId")) };
    return c.json(await network.scan(ref, typeof input.number === "string" ? input.number : undefined, { passkey: input.passkey === true }));
  });

  /** The phone enters a pairing code ("link with phone number" instead of scanning). */
  app.post("/api/connections/:companyId/:whatsappId/pairing-code", async (c) => {
    const input = z.object({ code: z.string().min(1), number: z.string().min(8) }).parse(await body(c));
    const ref = { companyId: Number(c.req.param("companyId")), whatsappId: Number(c.req.param("whatsappId")) };
    return c.json(await network.enterPairingCode(ref, input.code, input.number));
  });

  /** Scanning by the QR's content, as a phone camera does. */
  app.post("/api/scan", async (c) => {
    const input = z.object({ qr: z.string().min(1), number: z.string().optional(), passkey: z.boolean().optional() }).parse(await body(c));
    return c.json(await network.scan({ qr: input.qr }, input.number, { passkey: input.passkey }));
  });

  app.post("/api/connections/:companyId/:whatsappId/disconnect", async (c) => {
    await network.unlink({ companyId: Number(c.req.param("companyId")), whatsappId: Number(c.req.param("whatsappId")) });
    return c.json({ ok: true });
  });

  /** The linked phone's address book (replaced as a whole): what POST /contacts/import of that connection finds. */
  app.put("/api/connections/:companyId/:whatsappId/contacts", async (c) => {
    const input = z.array(z.object({ number: z.string().min(8), name: z.string().max(100).optional() })).max(5000).parse(await c.req.json().catch(() => null));
    const ref = { companyId: Number(c.req.param("companyId")), whatsappId: Number(c.req.param("whatsappId")) };
    return c.json(network.setPhoneBook(ref, input));
  });

  app.get("/api/customers", (c) => c.json(network.customers()));

  app.post("/api/customers", async (c) => {
    const input = z.object({ number: z.string().min(8), name: z.string().optional(), autoAck: z.boolean().optional() }).parse(await body(c));
    return c.json(network.upsertCustomer(input.number, input.name, input.autoAck), 201);
  });

  app.patch("/api/customers/:number", async (c) => {
    const input = z.object({ name: z.string().optional(), autoAck: z.boolean().optional() }).parse(await body(c));
    return c.json(network.upsertCustomer(c.req.param("number"), input.name, input.autoAck));
  });

  /** The customer sends a message (every type of spec 1 section 3; also edit, delete, typing, call). */
  app.post("/api/customers/:number/messages", async (c) => {
    const input = await body(c);
    const msg = messageSchema.parse(input);
    if (msg.name) network.upsertCustomer(c.req.param("number"), msg.name);
    return c.json(await network.customerSend(c.req.param("number"), refOf(input), msg), 201);
  });

  /** What the customer sees in the chat with a connection: both sides, with ack states. */
  app.get("/api/customers/:number/messages", (c) => {
    const chat = network.chat(c.req.param("number"), refOf(c.req.query()));
    return c.json(chat);
  });

  /** The customer's phone reports delivered (3) or read (4): all the business's messages, or the ids given. */
  app.post("/api/customers/:number/acks", async (c) => {
    const input = await body(c);
    const { ack, messageIds } = z.object({ ack: z.union([z.literal(3), z.literal(4)]), messageIds: z.array(z.string()).optional() }).parse(input);
    return c.json(network.customerAck(c.req.param("number"), refOf(input), ack, messageIds));
  });

  /**
   * An attachment in a customer's chat, as that customer's phone has it: what the customer sent or received, by
   * its unguessable id, and only for that phone (`phone`). Nothing else (the platform's media store above all) is
   * reachable here. Served like the API's media: typed from the bytes, `nosniff`, sandboxed, markup as an
   * attachment (shared/domain/media/media-sniff).
   */
  app.get("/api/media", (c) => {
    const { phone, id } = c.req.query();
    if (!phone || !id) return c.json({ error: "phone and id required" }, 400);
    const m = network.phoneMedia(phone, id);
    if (!m) return c.json({ error: "not found" }, 404);
    return c.body(new Uint8Array(m.bytes), 200, mediaResponseHeaders(m.bytes, id));
  });

  return app;
};
