import { Box, CircularProgress } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Centered spinner for a page or the whole app while it loads. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", justifyContent: "center", minHeight: fullScreen ? "100vh" : 240 }}>
      <CircularProgress aria-label={t("common:loading")} />
    </Box>
  );
}
