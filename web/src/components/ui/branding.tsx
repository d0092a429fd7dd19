import { Box } from "@mui/material";
import { useEffect, useState } from "react";
import type { LogoDestination } from "@atende/shared/domain/settings/settings";

/** The public URL serving a destination's uploaded logo (404 when none was uploaded). */
export const logoUrl = (destination: LogoDestination) => `/api/public/logos/${destination}`;

/** The uploaded logo of a destination (login, signup, interno); nothing when none was uploaded. */
export function BrandLogo({ destination, maxHeight = 80 }: { destination: LogoDestination; maxHeight?: number }) {
  const [missing, setMissing] = useState(false);
  if (missing) return null;
  return (
    <Box
      component="img"
      src={logoUrl(destination)}
      alt=""
      onError={() => setMissing(true)}
      data-testid={`logo-${destination}`}
      sx={{ display: "block", mx: "auto", maxHeight, maxWidth: "100%", mb: 1 }}
    />
  );
}

const setLink = (rel: string, href: string, sizes?: string) => {
  const link = document.createElement("link");
  link.rel = rel;
  if (sizes) link.sizes.value = sizes;
  link.href = href;
  document.head.appendChild(link);
};

/** Points the page's favicons at the uploaded ones (favicon, favicon-256x256, apple-touch-icon). Renders nothing. */
export function BrandingHead() {
  useEffect(() => {
    setLink("icon", logoUrl("favicon"));
    setLink("icon", logoUrl("favicon-256x256"), "256x256");
    setLink("apple-touch-icon", logoUrl("apple-touch-icon"));
  }, []);
  return null;
}
