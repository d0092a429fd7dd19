import { describe, expect, it, vi } from "vitest";
import { createPublicUrlGuard, PrivateUrlError } from "../../../platform/net/public-url-guard";
import { BOT_MEDIA_MAX_BYTES, fetchBotMedia } from "./bot-facade";

/** A flow's media by URL is fetched the way the flows' own calls are (ADR 0027): guarded, no redirects, capped. */
describe("fetchBotMedia", () => {
  const guard = createPublicUrlGuard({ allowPrivate: false, lookup: async (host) => [{ address: host === "cdn.example.com" ? "93.184.216.34" : "10.0.0.5" }] });

  it("refuses an address on our side of the network before any request", async () => {
    const fetchFn = vi.fn<typeof fetch>();
    await expect(fetchBotMedia("http://169.254.169.254/latest/meta-data/", guard, fetchFn)).rejects.toBeInstanceOf(PrivateUrlError);
    await expect(fetchBotMedia("https://intranet.example.com/a.png", guard, fetchFn)).rejects.toBeInstanceOf(PrivateUrlError);
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it("fetches a public URL without following redirects and returns its bytes and declared type", async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } }));
    const out = await fetchBotMedia("https://cdn.example.com/a.png", guard, fetchFn);
    expect([...out.bytes]).toEqual([1, 2, 3]);
    expect(out.contentType).toBe("image/png");
    expect(fetchFn.mock.calls[0]![1]).toMatchObject({ redirect: "manual" });
  });

  it("treats a redirect as a failure (its target was never checked)", async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1/" } }));
    await expect(fetchBotMedia("https://cdn.example.com/a.png", guard, fetchFn)).rejects.toThrow(/302/);
  });

  it("stops reading a body over the cap", async () => {
    const chunk = new Uint8Array(8 * 1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent > 4 * BOT_MEDIA_MAX_BYTES) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    const fetchFn = vi.fn<typeof fetch>(async () => new Response(body));
    await expect(fetchBotMedia("https://cdn.example.com/big.mp4", guard, fetchFn)).rejects.toThrow(/too large/);
    // the stream was cancelled soon after the cap, not read to its end (one chunk may be queued ahead)
    expect(sent).toBeLessThanOrEqual(BOT_MEDIA_MAX_BYTES + 2 * chunk.byteLength);
  });
});
