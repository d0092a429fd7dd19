import { Alert, Grid, Paper, Typography } from "@mui/material";
import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Title, Tooltip } from "chart.js";
import { Bar } from "react-chartjs-2";
import { useTranslation } from "react-i18next";
import { type DashboardFilter, useDashboardChart } from "../api/dashboard";

ChartJS.register(CategoryScale, LinearScale, BarElement, Title, Tooltip, Legend);

function ChartCard({ kind, filter, title, error }: { kind: "ticketsUsers" | "ticketsDay"; filter: DashboardFilter; title: string; error: string }) {
  const { t } = useTranslation("dashboard");
  const chart = useDashboardChart(kind, filter);
  return (
    <Paper variant="outlined" sx={{ p: 2, height: 340 }} data-testid={`chart-${kind}`}>
      <Typography variant="subtitle1">
        {title} ({t("total", { count: chart.data?.count ?? 0 })})
      </Typography>
      {chart.isError ? (
        <Alert severity="error">{error}</Alert>
      ) : (
        <div style={{ height: 280 }}>
          <Bar
            options={{ responsive: true, maintainAspectRatio: false, plugins: { legend: { display: false } } }}
            data={{
              labels: (chart.data?.data ?? []).map((d) => d.label),
              datasets: [{ label: title, data: (chart.data?.data ?? []).map((d) => d.total), backgroundColor: "#2576d2" }],
            }}
          />
        </div>
      )}
    </Paper>
  );
}

/** The two bar charts (chart.js, loaded only with the dashboard). */
export default function DashboardCharts({ filter }: { filter: DashboardFilter }) {
  const { t } = useTranslation("dashboard");
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard kind="ticketsUsers" filter={filter} title={t("charts.users")} error={t("charts.usersError")} />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard kind="ticketsDay" filter={filter} title={t("charts.days")} error={t("charts.daysError")} />
      </Grid>
    </Grid>
  );
}
