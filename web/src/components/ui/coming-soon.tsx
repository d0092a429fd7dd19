import ConstructionIcon from "@mui/icons-material/Construction";
import { Box, Paper, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The stand-in for a page not built yet: says so, in the user's language, instead of a broken screen. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const page = t(titleKey);
  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }} data-testid="coming-soon">
        <ConstructionIcon color="action" sx={{ fontSize: 48 }} />
        <Typography variant="h5" component="h1" gutterBottom>
          {page}
        </Typography>
        <Typography variant="subtitle1" color="text.secondary">
          {t("common:comingSoon.title")}
        </Typography>
        <Typography color="text.secondary">{t("common:comingSoon.text", { page })}</Typography>
      </Paper>
    </Box>
  );
}
