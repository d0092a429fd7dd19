import { useEffect, useState } from "react";
import { isInlineSafe, type SniffedKind, sniffMedia } from "@atende/shared/domain/media/media-sniff";
import { api } from "../lib/api-client";

/**
 * Media is fetched as a blob with the auth header (spec 1 section 7) and shown through an object URL,
 * revoked when the message leaves the screen. `mediaUrl` may be "/api/..." or a path relative to /api.
 *
 * An object URL has our origin, so what it holds must never be something a browser runs (docs/security.md "Media"):
 * the bytes are sniffed here (whatever the server or the sender said), only raster images, audio and video get their
 * type, and everything else becomes `application/octet-stream` — opened by any means, it is only ever downloaded.
 */
export const mediaPath = (mediaUrl: string) => {
  if (/^https?:\/\//i.test(mediaUrl)) {
    const url = new URL(mediaUrl);
    return url.origin === location.origin ? url.pathname.replace(/^\/api/, "") + url.search : null;
  }
  return mediaUrl.replace(/^\/api(?=\/)/, "");
};

export type MediaBlob = {
  url: string | null;
  error: boolean;
  /** what the bytes are: "image" / "audio" / "video" only for types a browser shows without running anything */
  kind: SniffedKind | null;
  /** true when the object URL may be shown inline (<img>, <audio>, <video>) */
  inline: boolean;
};

const EMPTY: MediaBlob = { url: null, error: false, kind: null, inline: false };
const FAILED: MediaBlob = { url: null, error: true, kind: null, inline: false };

/**
 * The blob of `mediaUrl`. The state remembers which source it belongs to: when the source changes, the previous
 * answer (whose object URL the effect's cleanup has just revoked, or whose failure belonged to another source) is
 * never shown; the hook answers EMPTY until the new source has loaded.
 */
export function useMediaBlob(mediaUrl: string | null | undefined): MediaBlob {
  const [state, setState] = useState<{ source: string; blob: MediaBlob } | null>(null);
  useEffect(() => {
    setState(null);
    if (!mediaUrl) return;
    const path = mediaPath(mediaUrl);
    if (path === null) {
      // another origin's URL is never fetched with our token nor shown: at most offered as a download link
      setState({ source: mediaUrl, blob: FAILED });
      return;
    }
    let objectUrl: string | null = null;
    let alive = true;
    api
      .get<Blob>(path, { responseType: "blob" })
      .then(async (blob) => {
        const bytes = new Uint8Array(await blob.arrayBuffer());
        const sniffed = sniffMedia(bytes);
        const inline = isInlineSafe(sniffed.mime);
        objectUrl = URL.createObjectURL(new Blob([bytes], { type: inline ? sniffed.mime : "application/octet-stream" }));
        if (alive) setState({ source: mediaUrl, blob: { url: objectUrl, error: false, kind: sniffed.kind, inline } });
        else URL.revokeObjectURL(objectUrl);
      })
      .catch(() => alive && setState({ source: mediaUrl, blob: FAILED }));
    return () => {
      alive = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [mediaUrl]);
  return state && state.source === mediaUrl ? state.blob : EMPTY;
}
