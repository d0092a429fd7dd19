import { Box, Card, CardContent, CircularProgress, Grid, LinearProgress, Paper, Stack, Typography } from "@mui/material";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { CampaignEventData } from "@atende/shared/contracts/http/campaigns";
import { useRealtime } from "../../../lib/realtime";
import { useCampaign } from "../api/campaigns";
import { formatDateTime, statusKey } from "./campaign-status";

/** Spec 3 section 4: after FINALIZADA the report reloads once more after 5 s (late counters). */
const FINISHED_RELOAD_MS = 5_000;

/** /campaign/:campaignId/report: counts, progress (delivered / valid x 100), live on the campaign's socket updates. */
export function CampaignReportPage() {
  const { t, i18n } = useTranslation("campaigns");
  const id = Number(useParams().campaignId);
  const query = useCampaign(id);
  const { refetch } = query;
  const c = query.data;
  useRealtime<CampaignEventData>("campaign", (data) => {
    if (data.action === "update" && data.record.id === id) void refetch();
  });
  useEffect(() => {
    if (c?.status !== "FINALIZADA") return;
    const timer = setTimeout(() => void refetch(), FINISHED_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [c?.status, refetch]);

  if (!c) {
    return (
      <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
        <CircularProgress />
      </Box>
    );
  }
  const cards = [
    { key: "valid", value: c.counts.valid },
    { key: "delivered", value: c.counts.delivered },
    { key: "confirmationRequested", value: c.counts.confirmationRequested },
    { key: "confirmed", value: c.counts.confirmed },
    // LGPD: recipients skipped because they opted out
    { key: "optedOut", value: c.counts.optedOut ?? 0 },
  ] as const;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("reportTitle", { name: c.name })}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" spacing={2} alignItems="center">
          <LinearProgress variant="determinate" value={c.counts.progress} sx={{ flex: 1, height: 10, borderRadius: 5 }} aria-label={t("progress")} />
          <Typography data-testid="campaign-progress">{c.counts.progress}%</Typography>
        </Stack>
      </Paper>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {cards.map((card) => (
          <Grid key={card.key} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card variant="outlined">
              <CardContent>
                <Typography color="text.secondary">{t(`counts.${card.key}`)}</Typography>
                <Typography variant="h4" data-testid={`count-${card.key}`}>
                  {card.value}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={1}>
          <Typography>
            {t("fields.status")}: <strong>{t(statusKey(c.status))}</strong>
          </Typography>
          <Typography>
            {t("fields.contactList")}: {c.contactList?.name ?? t("notDefined")}
          </Typography>
          <Typography>
            {t("fields.whatsapp")}: {c.whatsapp?.name ?? t("notDefined")}
          </Typography>
          <Typography>
            {t("fields.scheduledAt")}: {c.scheduledAt ? formatDateTime(c.scheduledAt, i18n.language) : t("noSchedule")}
          </Typography>
          <Typography>
            {t("fields.completedAt")}: {c.completedAt ? formatDateTime(c.completedAt, i18n.language) : t("notCompleted")}
          </Typography>
        </Stack>
      </Paper>
    </Box>
  );
}
