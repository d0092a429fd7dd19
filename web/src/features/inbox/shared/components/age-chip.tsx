import { Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { TICKET_AGE_REFRESH_MS } from "@atende/shared/constants/business";
import { AGE_COLORS, ageLabel } from "../age-label";
import { useNow } from "../../../../hooks/use-now";

/** "5 min" / "2 h" / "3 d" in the age colour, refreshed every 30 s. */
export function AgeChip({ since }: { since: string }) {
  const { t } = useTranslation("tickets");
  const now = useNow(TICKET_AGE_REFRESH_MS);
  const age = ageLabel(since, now);
  return (
    <Typography component="span" variant="caption" data-testid="age-label" data-color={age.color} sx={{ color: AGE_COLORS[age.color], fontWeight: age.color === "default" ? 400 : 600, whiteSpace: "nowrap" }}>
      {t(`age.${age.unit}`, { count: age.value })}
    </Typography>
  );
}
