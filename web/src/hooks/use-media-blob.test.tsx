import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mockFetch, reply } from "../testing/fetch-mock";
import { useMediaBlob } from "./use-media-blob";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const png = () => new Response(PNG, { status: 200, headers: { "content-type": "image/png" } });

describe("useMediaBlob", () => {
  let next = 0;
  const created: string[] = [];
  const revoked: string[] = [];
  beforeEach(() => {
    next = 0;
    created.length = 0;
    revoked.length = 0;
    URL.createObjectURL = vi.fn(() => {
      const url = `blob:test/${++next}`;
      created.push(url);
      return url;
    });
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the new source's answer only: the previous object URL is revoked and never returned once the source changes", async () => {
    let releaseB: (r: Response) => void = () => undefined;
    mockFetch({ "GET /api/media/a.png": png, "GET /api/media/b.png": () => new Promise<Response>((resolve) => (releaseB = resolve)) });
    const { result, rerender } = renderHook(({ src }: { src: string | null }) => useMediaBlob(src), { initialProps: { src: "/api/media/a.png" } });
    await waitFor(() => expect(result.current.url).toBe("blob:test/1"));
    expect(result.current).toMatchObject({ error: false, kind: "image", inline: true });

    rerender({ src: "/api/media/b.png" });
    // while b loads: nothing shown, and a's URL (revoked by the cleanup) is not handed out
    expect(result.current).toEqual({ url: null, error: false, kind: null, inline: false });
    expect(revoked).toEqual(["blob:test/1"]);

    releaseB(png());
    await waitFor(() => expect(result.current.url).toBe("blob:test/2"));
  });

  it("a failure belongs to its source: the next source starts empty, and no source means empty", async () => {
    let releaseB: (r: Response) => void = () => undefined;
    mockFetch({ "GET /api/media/gone.png": () => reply(404, { error: "ERR_NOT_FOUND" }), "GET /api/media/b.png": () => new Promise<Response>((resolve) => (releaseB = resolve)) });
    const { result, rerender } = renderHook(({ src }: { src: string | null }) => useMediaBlob(src), { initialProps: { src: "/api/media/gone.png" as string | null } });
    await waitFor(() => expect(result.current.error).toBe(true));
    expect(result.current).toEqual({ url: null, error: true, kind: null, inline: false });

    rerender({ src: "/api/media/b.png" });
    expect(result.current).toEqual({ url: null, error: false, kind: null, inline: false });
    releaseB(png());
    await waitFor(() => expect(result.current.url).toBe("blob:test/1"));

    rerender({ src: null });
    expect(result.current).toEqual({ url: null, error: false, kind: null, inline: false });
    expect(revoked).toEqual(["blob:test/1"]);
  });

  it("another origin's URL is refused without a request, and going back to a source that had loaded fetches it again", async () => {
    const { calls } = mockFetch({ "GET /api/media/a.png": png });
    const { result, rerender } = renderHook(({ src }: { src: string | null }) => useMediaBlob(src), { initialProps: { src: "https://evil.example/x.png" as string | null } });
    await waitFor(() => expect(result.current.error).toBe(true));
    expect(calls).toHaveLength(0);

    rerender({ src: "/api/media/a.png" });
    await waitFor(() => expect(result.current.url).toBe("blob:test/1"));
    rerender({ src: "https://evil.example/x.png" });
    await waitFor(() => expect(result.current.error).toBe(true));
    rerender({ src: "/api/media/a.png" });
    expect(result.current.url).toBeNull();
    await waitFor(() => expect(result.current.url).toBe("blob:test/2"));
    expect(revoked).toEqual(["blob:test/1"]);
  });
});
