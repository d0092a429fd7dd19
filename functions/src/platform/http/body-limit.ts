import type { MiddlewareHandler } from "hono";
import { AppError } from "../errors";
import { MAX_MESSAGE_FILE_BYTES } from "./uploaded-file";

/**
 * Largest JSON (or any non-multipart) body: the biggest legitimate one is a message of 65,536 characters
 * (at most ~400 KB once JSON-escaped); everything else is a few KB.
 */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Largest multipart body: one message file at its limit plus the form around it. */
export const MAX_MULTIPART_BODY_BYTES = MAX_MESSAGE_FILE_BYTES + 1024 * 1024;

export type BodyLimits = { json: number; multipart: number };

const tooLarge = () => new AppError("ERR_PAYLOAD_TOO_LARGE");
/**
 * A 413 leaves the rest of the body unread, and the server closes the socket after answering (@hono/node-server
 * drains a little, then ends it): the answer says so (`Connection: close`) instead of promising a keep-alive the
 * server will not keep, so a client never sends its next request into a socket about to close.
 */
const closing = (c: Parameters<MiddlewareHandler>[0]) => {
  c.header("connection", "close");
  return tooLarge();
};

/**
 * Caps every request body before anything parses it (413 ERR_PAYLOAD_TOO_LARGE):
 * - a declared Content-Length over the cap is refused before the route runs (nothing is read);
 * - otherwise (chunked, or a lying length) the body is handed on through a counting stream that fails as soon
 *   as the cap is passed, so a parser holds at most the cap in memory and never sees the rest.
 * The cap is chosen by the declared Content-Type: multipart forms (uploads) get the larger one.
 * Unread bodies are not read: on Node, @hono/node-server drains at most 64 MiB / 500 ms and closes the socket.
 */
export const limitBody =
  (limits: BodyLimits = { json: MAX_JSON_BODY_BYTES, multipart: MAX_MULTIPART_BODY_BYTES }): MiddlewareHandler =>
  async (c, next) => {
    // a GET or HEAD request has no body (the Request refuses one): asking for it would only make @hono/node-server
    // build the whole Request it otherwise never needs (docs/adr/0050)
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const raw = c.req.raw;
    if (!raw.body) return next();
    const max = /^multipart\/form-data/i.test(c.req.header("content-type") ?? "") ? limits.multipart : limits.json;
    const declared = c.req.header("content-length");
    if (declared !== undefined && !c.req.header("transfer-encoding") && !(Number(declared) <= max)) throw closing(c);

    let seen = 0;
    let over = false;
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > max) {
            over = true;
            controller.error(closing(c));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(raw, { body: counted, duplex: "half" } as RequestInit);
    await next();
    // Whatever the route made of a body that failed half-way (usually ERR_VALIDATION), the answer is 413.
    if (over) throw closing(c);
  };
