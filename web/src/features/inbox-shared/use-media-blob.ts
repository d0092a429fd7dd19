import { useEffect, useState } from "react";
import { api } from "../../lib/api-client";

/**
 * Media is fetched as a blob with the auth header (spec 1 section 7) and shown through an object URL,
 * revoked when the message leaves the screen. `mediaUrl` may be "/api/..." or a path relative to /api.
 */
export const mediaPath = (mediaUrl: string) => {
  if (/^https?:\/\//i.test(mediaUrl)) {
    const url = new URL(mediaUrl);
    return url.origin === location.origin ? url.pathname.replace(/^\/api/, "") + url.search : null;
  }
  return mediaUrl.replace(/^\/api(?=\/)/, "");
};

export function useMediaBlob(mediaUrl: string | null | undefined) {
  const [state, setState] = useState<{ url: string | null; error: boolean }>({ url: null, error: false });
  useEffect(() => {
    if (!mediaUrl) return;
    const path = mediaPath(mediaUrl);
    if (path === null) {
      setState({ url: mediaUrl, error: false });
      return;
    }
    let objectUrl: string | null = null;
    let alive = true;
    api.get<Blob>(path, { responseType: "blob" }).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        if (alive) setState({ url: objectUrl, error: false });
        else URL.revokeObjectURL(objectUrl);
      },
      () => alive && setState({ url: null, error: true }),
    );
    return () => {
      alive = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [mediaUrl]);
  return state;
}
