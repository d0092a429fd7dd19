import { Alert, Box, Button, Checkbox, Chip, FormControlLabel, Grid, LinearProgress, Link, MenuItem, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CsatFigures, ReportExportView, ReportRow, SlaResult } from "@atende/shared/contracts/http/reports";
import { formatShortDateTime } from "@atende/shared/domain/format/dates";
import { formatPhone } from "@atende/shared/domain/format/phone";
import { TICKET_STATUSES } from "@atende/shared/domain/tickets/ticket";
import { type DataColumn, DataTable } from "../../../components/ui/data-table";
import { useDebounced } from "../../../hooks/use-debounced";
import { useConnections, useQueues, useUsersList } from "../../../lib/pickers";
import { useRealtime } from "../../../lib/realtime";
import { toastError } from "../../../lib/toast-error";
import { type ReportFilterState, downloadExport, emptyReportFilters, useCsat, useExportJob, useReport, useStartExport } from "../api/reports";
import { useQuery } from "@tanstack/react-query";
import { tagsOptions } from "../../../lib/pickers";

/** Seconds as h:mm:ss ("—" when the interval did not happen). */
const duration = (s: number | null) => {
  if (s === null) return "—";
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, height: "100%" }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6">{value}</Typography>
    </Paper>
  );
}

type Option = { id: number; name: string };
function MultiPick({ label, options, value, onChange, testId }: { label: string; options: Option[]; value: number[]; onChange: (v: number[]) => void; testId: string }) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange((e.target.value as unknown as (number | string)[]).map(Number))}
      sx={{ minWidth: 150, maxWidth: 220 }}
      data-testid={testId}
      slotProps={{ select: { multiple: true, renderValue: (v) => options.filter((o) => (v as number[]).includes(o.id)).map((o) => o.name).join(", ") } }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          <Checkbox size="small" checked={value.includes(o.id)} sx={{ p: 0, mr: 1 }} />
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function CsatTable({ title, rows, testId }: { title: string; rows: (CsatFigures & { id: number | null; name: string })[]; testId: string }) {
  const { t } = useTranslation("reports");
  const pct = (v: number | null) => (v === null ? "—" : `${v.toLocaleString()} %`);
  return (
    <Paper variant="outlined" sx={{ overflowX: "auto" }}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            <TableCell>{title}</TableCell>
            <TableCell align="right">{t("csat.score")}</TableCell>
            <TableCell align="right">{t("csat.responseRate")}</TableCell>
            <TableCell align="right">{t("csat.answers")}</TableCell>
            <TableCell align="right">{t("csat.requests")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.id ?? "none"}>
              <TableCell>{r.name || t("none")}</TableCell>
              <TableCell align="right">{pct(r.score)}</TableCell>
              <TableCell align="right">{pct(r.responseRate)}</TableCell>
              <TableCell align="right">{r.answers}</TableCell>
              <TableCell align="right">{r.requests}</TableCell>
            </TableRow>
          ))}
          {!rows.length && (
            <TableRow>
              <TableCell colSpan={5}>{t("csat.empty")}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Paper>
  );
}

/** The export in progress or finished: a progress bar, then the download link (kept for a day). */
function ExportStatus({ id, filename }: { id: string; filename: string }) {
  const { t } = useTranslation("reports");
  const job = useExportJob(id);
  const [live, setLive] = useState<ReportExportView | null>(null);
  useRealtime<{ job: ReportExportView }>("report", (data) => {
    if (data.job.id === id) setLive(data.job);
  });
  const view = [live, job.data].filter((v): v is ReportExportView => Boolean(v)).sort((a, b) => b.progress - a.progress)[0];
  if (!view) return null;
  if (view.status === "failed") return <Alert severity="error">{view.error === "expired" ? t("export.expired") : t("export.failed")}</Alert>;
  if (view.status === "running")
    return (
      <Box data-testid="report-export-progress" sx={{ minWidth: 220 }}>
        <Typography variant="body2">{t("export.running", { progress: view.progress })}</Typography>
        <LinearProgress variant="determinate" value={view.progress} />
      </Box>
    );
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Link component="button" data-testid="report-export-download" onClick={() => void downloadExport(view, filename).catch(toastError)}>
        {t("export.download", { count: view.rows })}
      </Link>
      <Typography variant="caption" color="text.secondary">
        {t("export.keptUntil", { at: formatShortDateTime(view.expiresAt) })}
      </Typography>
    </Stack>
  );
}

/** /reports, "Relatórios" (admins): one row per attention cycle, the period's figures, CSAT, exports, definitions. */
export function ReportsPage() {
  const { t, i18n } = useTranslation("reports");
  const [filters, setFilters] = useState<ReportFilterState>(() => emptyReportFilters());
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText, 500);
  const applied = useMemo(() => ({ ...filters, searchParam: search }), [filters, search]);
  const report = useReport(applied);
  const csat = useCsat(applied, true);
  const queues = useQueues();
  const users = useUsersList();
  const connections = useConnections();
  const tags = useQuery(tagsOptions());
  const startExport = useStartExport();
  const [exporting, setExporting] = useState<{ id: string; filename: string } | null>(null);
  const set = <K extends keyof ReportFilterState>(key: K, value: ReportFilterState[K]) => setFilters((f) => ({ ...f, [key]: value }));

  const rows = useMemo(() => (report.data?.pages ?? []).flatMap((p) => p.tickets).map((r) => ({ ...r, id: r.ticketId })), [report.data]);
  const first = report.data?.pages[0];
  const summary = first?.summary;
  const minutes = (v?: number) => (v === undefined ? "-" : t("minutes", { count: v }));
  const slaText = (v: SlaResult) => (v ? t(`sla.${v}`) : "—");
  const range = { dateFrom: filters.dateFrom, dateTo: filters.dateTo };
  const badRange = Boolean(range.dateFrom && range.dateTo && range.dateFrom > range.dateTo);

  const doExport = async (format: "csv" | "xlsx") => {
    try {
      const lng = (["pt", "en", "es"].includes(i18n.language) ? i18n.language : "pt") as "pt" | "en" | "es";
      const job = await startExport.mutateAsync({ filters: applied, format, locale: lng });
      setExporting({ id: job.id, filename: `relatorio-${filters.dateFrom}-${filters.dateTo}.${format}` });
    } catch (err) {
      toastError(err);
    }
  };

  const columns: DataColumn<ReportRow & { id: number }>[] = [
    { header: t("col.protocol"), cell: (r) => r.protocol ?? `#${r.ticketId}`, sx: { whiteSpace: "nowrap" } },
    {
      header: t("col.contact"),
      cell: (r) => (
        <>
          {r.contact?.name ?? "—"}
          <Typography variant="caption" display="block" color="text.secondary">
            {formatPhone(r.contact?.number)}
          </Typography>
        </>
      ),
    },
    { header: t("col.connection"), cell: (r) => r.whatsapp?.name ?? "—" },
    { header: t("col.queue"), cell: (r) => (r.queuePath.length ? r.queuePath.map((q) => q.name).join(" › ") : "—") },
    { header: t("col.attendants"), cell: (r) => (r.users.length ? r.users.map((u) => u.name).join(", ") : "—") },
    { header: t("col.status"), cell: (r) => (r.abandoned ? t("abandoned") : t(`status.${r.status}`)) },
    { header: t("col.opened"), cell: (r) => formatShortDateTime(r.queuedAt), sx: { whiteSpace: "nowrap" } },
    { header: t("col.firstResponse"), cell: (r) => duration(r.firstResponseSeconds), align: "right" },
    { header: t("col.wait"), cell: (r) => duration(r.waitSeconds), align: "right" },
    { header: t("col.handling"), cell: (r) => duration(r.handlingSeconds), align: "right" },
    { header: t("col.closed"), cell: (r) => (r.finishedAt ? formatShortDateTime(r.finishedAt) : "—"), sx: { whiteSpace: "nowrap" } },
    { header: t("col.rating"), cell: (r) => (r.rating ? t(`rating.${r.rating}`) : "—") },
    { header: t("col.sla"), cell: (r) => slaText(r.sla.overall) },
    { header: t("col.tags"), cell: (r) => r.tags.map((tag) => <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: "#fff", mr: 0.5 }} />) },
  ];

  const filterBar = (
    <Stack direction="row" flexWrap="wrap" gap={1} alignItems="center" data-testid="report-filters">
      <TextField size="small" type="date" label={t("dateFrom")} value={filters.dateFrom} onChange={(e) => set("dateFrom", e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "report-date-from" } }} />
      <TextField size="small" type="date" label={t("dateTo")} value={filters.dateTo} onChange={(e) => set("dateTo", e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "report-date-to" } }} />
      <MultiPick label={t("queues")} testId="report-queues" options={queues.data ?? []} value={filters.queueIds} onChange={(v) => set("queueIds", v)} />
      <MultiPick label={t("connections")} testId="report-connections" options={connections.data ?? []} value={filters.whatsappIds} onChange={(v) => set("whatsappIds", v)} />
      <MultiPick label={t("users")} testId="report-users" options={users.data ?? []} value={filters.userIds} onChange={(v) => set("userIds", v)} />
      <MultiPick label={t("tags")} testId="report-tags" options={tags.data ?? []} value={filters.tags} onChange={(v) => set("tags", v)} />
      <TextField select size="small" label={t("col.status")} value={filters.status} onChange={(e) => set("status", e.target.value as ReportFilterState["status"])} sx={{ minWidth: 130 }} data-testid="report-status">
        <MenuItem value="">{t("all")}</MenuItem>
        {TICKET_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`status.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label={t("col.rating")} value={filters.rating} onChange={(e) => set("rating", e.target.value as ReportFilterState["rating"])} sx={{ minWidth: 130 }} data-testid="report-rating">
        <MenuItem value="">{t("all")}</MenuItem>
        {(["3", "2", "1", "rated", "unrated"] as const).map((r) => (
          <MenuItem key={r} value={r}>
            {t(`rating.${r}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label={t("col.sla")} value={filters.sla} onChange={(e) => set("sla", e.target.value as ReportFilterState["sla"])} sx={{ minWidth: 120 }} data-testid="report-sla">
        <MenuItem value="">{t("all")}</MenuItem>
        <MenuItem value="met">{t("sla.met")}</MenuItem>
        <MenuItem value="breached">{t("sla.breached")}</MenuItem>
      </TextField>
      <FormControlLabel control={<Checkbox size="small" checked={filters.abandoned} onChange={(e) => set("abandoned", e.target.checked)} />} label={t("abandonedOnly")} />
      <TextField size="small" label={t("search")} value={searchText} onChange={(e) => setSearchText(e.target.value)} slotProps={{ htmlInput: { "data-testid": "report-search" } }} />
      <Button onClick={() => (setFilters(emptyReportFilters()), setSearchText(""))}>{t("clear")}</Button>
      <Button variant="outlined" onClick={() => void doExport("csv")} loading={startExport.isPending} disabled={badRange} data-testid="report-export-csv">
        {t("export.csv")}
      </Button>
      <Button variant="outlined" onClick={() => void doExport("xlsx")} loading={startExport.isPending} disabled={badRange} data-testid="report-export-xlsx">
        {t("export.xlsx")}
      </Button>
      {exporting && <ExportStatus key={exporting.id} id={exporting.id} filename={exporting.filename} />}
    </Stack>
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t("title")}
      </Typography>
      <Paper variant="outlined" sx={{ p: 1.5, mb: 1 }}>
        {filterBar}
      </Paper>
      {badRange && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {t("badRange")}
        </Alert>
      )}
      <Grid container spacing={1} sx={{ mb: 1 }} data-testid="report-summary">
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-total" label={t("figures.total")} value={first?.totalTickets ?? "-"} />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-avg-wait" label={t("figures.avgWait")} value={minutes(summary?.avgWaitTime)} />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-avg-first" label={t("figures.avgFirstResponse")} value={minutes(summary?.avgFirstResponseTime)} />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-avg-handling" label={t("figures.avgHandling")} value={minutes(summary?.avgSupportTime)} />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-abandoned" label={t("figures.abandoned")} value={summary?.abandoned ?? "-"} />
        </Grid>
        <Grid size={{ xs: 6, md: 2 }}>
          <Figure testId="report-sla" label={t("figures.sla")} value={summary ? t("figures.slaValue", { met: summary.slaMet, breached: summary.slaBreached }) : "-"} />
        </Grid>
      </Grid>
      <DataTable layout="flow" panelSx={{ maxHeight: "70vh", overflow: "auto" }} scrollTestId="report-scroll" columns={columns} rows={rows} rowTestId="report-row" query={report} empty={t("empty")} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t("csat.title")}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }} data-testid="report-csat-total">
        {csat.data ? t("csat.total", { score: csat.data.total.score ?? "—", rate: csat.data.total.responseRate ?? "—", answers: csat.data.total.answers, requests: csat.data.total.requests }) : "-"}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <CsatTable title={t("csat.byUser")} rows={csat.data?.byUser ?? []} testId="report-csat-users" />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <CsatTable title={t("csat.byQueue")} rows={csat.data?.byQueue ?? []} testId="report-csat-queues" />
        </Grid>
      </Grid>
      <Paper variant="outlined" sx={{ p: 2, mt: 3 }} data-testid="report-definitions">
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("definitions.title")}
        </Typography>
        <Box component="dl" sx={{ m: 0, "& dt": { fontWeight: 600, mt: 1 }, "& dd": { ml: 0 } }}>
          {(["wait", "firstResponse", "handling", "abandoned", "sla", "csat", "responseRate", "period"] as const).map((k) => (
            <Box key={k}>
              <dt>{t(`definitions.${k}.term`)}</dt>
              <dd>{t(`definitions.${k}.text`)}</dd>
            </Box>
          ))}
        </Box>
      </Paper>
    </Box>
  );
}
