import { describe, expect, it } from "vitest";
import { capBody, createOutbound } from "../../net/outbound-fetch";
import { createGraphApiClient } from "./graph-api.client";

/**
 * The Graph API client's URLs from answers (docs/adr/0062): paging stays on the base URL's origin, and media is read
 * through the guarded fetch with the message limit as its cap. A recording fetch plays Meta.
 */
const recording = (answer: (url: string) => Response) => {
  const urls: string[] = [];
  const fetch = async (url: string) => {
    urls.push(url);
    return answer(url);
  };
  return { urls, fetch };
};
const page = (next?: string) => Response.json({ data: [{ id: "1", name: "ola", language: "pt_BR", status: "APPROVED", category: "UTILITY", components: [] }], paging: next ? { next } : {} });

describe("Graph API paging", () => {
  it("follows an absolute paging.next on the base URL's origin", async () => {
    const meta = recording((url) => (url.includes("after=2") ? page() : page("https://graph.facebook.com/v23.0/123/message_templates?after=2")));
    const graph = createGraphApiClient({ baseUrl: "https://graph.facebook.com/v23.0", accessToken: "T", fetch: meta.fetch });
    expect(await graph.listTemplates("123")).toHaveLength(2);
    expect(meta.urls).toHaveLength(2);
  });

  it("refuses a paging.next on another origin or a private address: never called (it would carry the token)", async () => {
    for (const next of ["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:8080/simulator/cloudapi/api/state", "https://evil.example/steal", "//evil.example/x"]) {
      const meta = recording((url) => (url.startsWith("https://graph.facebook.com/") ? page(next) : page()));
      const graph = createGraphApiClient({ baseUrl: "https://graph.facebook.com/v23.0", accessToken: "T", fetch: meta.fetch });
      const out = await graph.listTemplates("123").then(
        () => "followed",
        (e: Error) => e.message,
      );
      if (next.startsWith("//")) {
        // a relative reference resolves on the base: the same origin, so it may be followed
        expect(meta.urls.every((u) => u.startsWith("https://graph.facebook.com/")), next).toBe(true);
        continue;
      }
      expect(out, next).toMatch(/paging URL outside the Graph API address was refused/);
      expect(meta.urls, next).toHaveLength(1);
    }
  });
});

describe("Graph API media through the guard", () => {
  it("a media URL on a private address is refused by the guarded fetch; one over the limit answers tooLarge", async () => {
    const outbound = createOutbound({ on: true });
    const graph = createGraphApiClient({
      baseUrl: "https://graph.facebook.com/v23.0",
      accessToken: "T",
      // the Graph call itself is answered in memory; the media URL goes to the guarded fetch
      fetch: async (url, init) => (url.startsWith("https://graph.facebook.com/") ? Response.json({ url: "http://10.0.0.7/internal", mime_type: "image/jpeg" }) : outbound.fetch(url, init)),
    });
    await expect(graph.downloadMedia("MEDIA", 1000)).rejects.toThrow(/not a public address/);

    const big = createGraphApiClient({
      baseUrl: "https://graph.facebook.com/v23.0",
      accessToken: "T",
      fetch: async (url, init) => {
        if (url.startsWith("https://graph.facebook.com/")) return Response.json({ url: "https://lookaside.example/m", mime_type: "image/jpeg" });
        // the media server streams more than the limit without declaring a length
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            c.enqueue(new Uint8Array(600));
          },
        });
        return capBody(new Response(body), (init as { maxBodyBytes?: number }).maxBodyBytes ?? Infinity);
      },
    });
    expect(await big.downloadMedia("MEDIA", 1000)).toEqual({ tooLarge: 1001 });
  });
});
