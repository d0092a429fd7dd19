import { LinearProgress, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Tokens a prompt used this month, against its cap when it has one (the prompts page's column). */
export function PromptTokens({ used, cap }: { used: number; cap: number }) {
  const { t, i18n } = useTranslation("prompts");
  const fmt = new Intl.NumberFormat(i18n.language);
  if (!cap) return <span data-testid="prompt-tokens">{fmt.format(used)}</span>;
  const pct = Math.min(100, Math.round((used / cap) * 100));
  return (
    <Stack spacing={0.5} sx={{ minWidth: 120 }} data-testid="prompt-tokens">
      <Typography variant="body2">{t("usage.ofCap", { used: fmt.format(used), cap: fmt.format(cap) })}</Typography>
      <LinearProgress variant="determinate" value={pct} color={pct >= 100 ? "error" : pct >= 80 ? "warning" : "primary"} aria-label={t("usage.capProgress", { pct })} />
    </Stack>
  );
}

/** The company's total this month, above the list. */
export function CompanyTokens({ month, total }: { month: string; total: number }) {
  const { t, i18n } = useTranslation("prompts");
  const [y, m] = month.split("-").map(Number);
  const label = y && m ? new Intl.DateTimeFormat(i18n.language, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1))) : month;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="company-tokens">
      {t("usage.company", { total: new Intl.NumberFormat(i18n.language).format(total), month: label })}
    </Typography>
  );
}
