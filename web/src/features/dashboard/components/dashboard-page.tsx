import StarIcon from "@mui/icons-material/Star";
import StarBorderIcon from "@mui/icons-material/StarBorder";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CancelIcon from "@mui/icons-material/Cancel";
import { Alert, Box, Button, Grid, MenuItem, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { Suspense, lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { DASHBOARD_PERIODS, RATING_MAX } from "@atende/shared/constants/business";
import { useSessionUser } from "../../../lib/session/session-context";
import { useDashboardBlock } from "../../../lib/service-level-slots";
import { type DashboardFilter, hasFilter, useDashboard } from "../api/dashboard";

const DashboardCharts = lazy(() => import("./dashboard-charts"));

function Counter({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: "100%" }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4">{value}</Typography>
    </Paper>
  );
}

function Rating({ value }: { value: number }) {
  return (
    <Box sx={{ display: "inline-flex", color: "warning.main" }} aria-label={String(value)}>
      {Array.from({ length: RATING_MAX }, (_, i) => (i < Math.round(value) ? <StarIcon key={i} fontSize="small" /> : <StarBorderIcon key={i} fontSize="small" />))}
    </Box>
  );
}

/** / (admins): counters, attendants and the two charts for a period (3..90 days) or a date range. */
export function DashboardPage() {
  const { t } = useTranslation("dashboard");
  const user = useSessionUser();
  const AgentsPanel = useDashboardBlock();
  const [mode, setMode] = useState<"period" | "range">("period");
  const [days, setDays] = useState<number | "">(7);
  const [dateFrom, setDateFrom] = useState("");
  const [dateTo, setDateTo] = useState("");
  const [filter, setFilter] = useState<DashboardFilter>({ days: 7 });
  const [missing, setMissing] = useState(false);
  const summary = useDashboard(filter);

  const apply = () => {
    const next: DashboardFilter = mode === "period" ? { days: days || undefined } : { dateFrom: dateFrom || undefined, dateTo: dateTo || undefined };
    setMissing(!hasFilter(next));
    setFilter(next);
  };
  const c = summary.data?.counters;
  const minutes = (v?: number) => (v === undefined ? "-" : t("minutes", { count: v }));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title")}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2} alignItems={{ md: "center" }}>
          <TextField select size="small" label={t("filterType")} value={mode} onChange={(e) => setMode(e.target.value as "period" | "range")} sx={{ minWidth: 180 }}>
            <MenuItem value="period">{t("byPeriod")}</MenuItem>
            <MenuItem value="range">{t("byRange")}</MenuItem>
          </TextField>
          {mode === "period" ? (
            <TextField select size="small" label={t("period")} value={days} onChange={(e) => setDays(e.target.value === "" ? "" : Number(e.target.value))} sx={{ minWidth: 180 }} data-testid="period-select">
              <MenuItem value="">{t("none")}</MenuItem>
              {DASHBOARD_PERIODS.map((d) => (
                <MenuItem key={d} value={d}>
                  {t("lastDays", { count: d })}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <>
              <TextField size="small" type="date" label={t("dateFrom")} value={dateFrom} onChange={(e) => setDateFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
              <TextField size="small" type="date" label={t("dateTo")} value={dateTo} onChange={(e) => setDateTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            </>
          )}
          <Button variant="contained" onClick={apply}>
            {t("filter")}
          </Button>
        </Stack>
        {missing && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t("noFilter")}
          </Alert>
        )}
      </Paper>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {user.super && (
          <>
            <Grid size={{ xs: 6, md: 6 }}>
              <Counter testId="card-sessions" label={t("cards.totalWhatsappSessions")} value={c?.totalWhatsappSessions ?? "-"} />
            </Grid>
            <Grid size={{ xs: 6, md: 6 }}>
              <Counter testId="card-companies" label={t("cards.totalCompanies")} value={c?.totalCompanies ?? "-"} />
            </Grid>
          </>
        )}
        <Grid size={{ xs: 6, md: 4 }}>
          <Counter testId="card-happening" label={t("cards.supportHappening")} value={c?.supportHappening ?? "-"} />
        </Grid>
        <Grid size={{ xs: 6, md: 4 }}>
          <Counter testId="card-pending" label={t("cards.supportPending")} value={c?.supportPending ?? "-"} />
        </Grid>
        <Grid size={{ xs: 6, md: 4 }}>
          <Counter testId="card-finished" label={t("cards.supportFinished")} value={c?.supportFinished ?? "-"} />
        </Grid>
        <Grid size={{ xs: 6, md: 6 }}>
          <Counter testId="card-support" label={t("cards.avgSupportTime")} value={minutes(c?.avgSupportTime)} />
        </Grid>
        <Grid size={{ xs: 6, md: 6 }}>
          <Counter testId="card-wait" label={t("cards.avgWaitTime")} value={minutes(c?.avgWaitTime)} />
        </Grid>
      </Grid>
      <Paper variant="outlined" sx={{ mb: 2, overflowX: "auto" }}>
        <Table size="small" data-testid="attendants">
          <TableHead>
            <TableRow>
              <TableCell>{t("attendants.name")}</TableCell>
              <TableCell>{t("attendants.rating")}</TableCell>
              <TableCell>{t("attendants.avgSupportTime")}</TableCell>
              <TableCell>{t("attendants.online")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(summary.data?.attendants ?? []).map((a) => (
              <TableRow key={a.id}>
                <TableCell>{a.name}</TableCell>
                <TableCell>
                  <Rating value={a.rating} />
                </TableCell>
                <TableCell>{minutes(a.avgSupportTime)}</TableCell>
                <TableCell>{a.online ? <CheckCircleIcon fontSize="small" color="success" titleAccess={t("online")} /> : <CancelIcon fontSize="small" color="error" titleAccess={t("offline")} />}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      {AgentsPanel && <AgentsPanel />}
      {hasFilter(filter) && (
        <Suspense fallback={null}>
          <DashboardCharts filter={filter} />
        </Suspense>
      )}
    </Box>
  );
}
