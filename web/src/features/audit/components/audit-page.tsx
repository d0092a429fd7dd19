import { Box, Button, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AUDIT_ACTIONS, AUDIT_RECORD_KINDS, type AuditEntry } from "@atende/shared/domain/audit/audit";
import { formatDate, formatTime } from "@atende/shared/domain/format/dates";
import { type DataColumn, DataTable } from "../../../components/ui/data-table";
import { useDebounced } from "../../../hooks/use-debounced";
import { useUsersList } from "../../../lib/pickers";
import { useSessionUser } from "../../../lib/session/session-context";
import { toastError } from "../../../lib/toast-error";
import { type AuditFilters, EMPTY_AUDIT_FILTERS, downloadAuditCsv, useAuditLogs } from "../api/audit-logs";

const show = (v: unknown) => (v === null || v === undefined || v === "" ? "—" : typeof v === "string" ? v : JSON.stringify(v));

function Changes({ entry }: { entry: AuditEntry }) {
  const fields = Object.entries(entry.changes);
  if (!fields.length) return <>—</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {fields.map(([name, c]) => (
        <li key={name}>
          <Typography variant="body2" component="span" sx={{ wordBreak: "break-word" }}>
            <strong>{name}</strong>: {show(c.from)} → {show(c.to)}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

/** /audit-logs, "Auditoria": who changed what, when and from where; filters, infinite scroll and CSV export. */
export function AuditPage() {
  const { t } = useTranslation("audit");
  const me = useSessionUser();
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [recordIdText, setRecordIdText] = useState("");
  const recordId = useDebounced(recordIdText, 400);
  const applied = useMemo(() => ({ ...filters, recordId }), [filters, recordId]);
  const query = useAuditLogs(applied);
  // the table keys rows by a number: the entry's position (entries are never edited, so positions are stable)
  const rows = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.logs).map((entry, id) => ({ id, entry })), [query.data]);
  const users = useUsersList(!me.super || filters.companyId === "" || filters.companyId === me.companyId);
  const [exporting, setExporting] = useState(false);
  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  const actor = (e: AuditEntry) =>
    e.actor.kind === "user" ? `${e.actor.name}${e.actor.super ? ` (${t("operator")})` : ""}` : e.actor.kind === "system" ? t("system", { name: e.actor.name }) : e.actor.email;

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(applied);
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };

  const columns: DataColumn<{ id: number; entry: AuditEntry }>[] = [
    { header: t("when"), cell: ({ entry: e }) => `${formatDate(e.at)} ${formatTime(e.at)}`, sx: { whiteSpace: "nowrap" } },
    ...(me.super ? [{ header: t("company"), cell: ({ entry: e }: { entry: AuditEntry }) => e.companyId ?? "—" }] : []),
    { header: t("user"), cell: ({ entry: e }) => actor(e) },
    { header: t("address"), cell: ({ entry: e }) => e.ip },
    { header: t("action"), cell: ({ entry: e }) => t(`actions.${e.action}`) },
    { header: t("record"), cell: ({ entry: e }) => `${t(`kinds.${e.record.kind}`)} #${e.record.id}` },
    { header: t("changes"), cell: ({ entry: e }) => <Changes entry={e} /> },
  ];

  const filtersBar = (
    <Stack direction="row" flexWrap="wrap" gap={1} alignItems="center" data-testid="audit-filters">
      <TextField size="small" type="date" label={t("from")} value={filters.fromDay} onChange={(e) => set("fromDay", e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
      <TextField size="small" type="date" label={t("to")} value={filters.toDay} onChange={(e) => set("toDay", e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
      {me.super && (
        <TextField
          size="small"
          type="number"
          label={t("company")}
          value={filters.companyId}
          onChange={(e) => set("companyId", e.target.value === "" ? "" : Number(e.target.value))}
          sx={{ width: 110 }}
          slotProps={{ htmlInput: { min: 1, "data-testid": "audit-company" } }}
        />
      )}
      <TextField select size="small" label={t("user")} value={filters.userId} onChange={(e) => set("userId", e.target.value === "" ? "" : Number(e.target.value))} sx={{ minWidth: 140 }} data-testid="audit-user">
        <MenuItem value="">{t("all")}</MenuItem>
        {(users.data ?? []).map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label={t("action")} value={filters.action} onChange={(e) => set("action", e.target.value as AuditFilters["action"])} sx={{ minWidth: 140 }} data-testid="audit-action">
        <MenuItem value="">{t("all")}</MenuItem>
        {AUDIT_ACTIONS.map((a) => (
          <MenuItem key={a} value={a}>
            {t(`actions.${a}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField select size="small" label={t("record")} value={filters.recordKind} onChange={(e) => set("recordKind", e.target.value as AuditFilters["recordKind"])} sx={{ minWidth: 140 }} data-testid="audit-kind">
        <MenuItem value="">{t("all")}</MenuItem>
        {AUDIT_RECORD_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {t(`kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField size="small" label={t("recordId")} value={recordIdText} onChange={(e) => setRecordIdText(e.target.value)} sx={{ width: 110 }} />
      <Button onClick={() => (setFilters(EMPTY_AUDIT_FILTERS), setRecordIdText(""))}>{t("clear")}</Button>
      <Button variant="contained" onClick={() => void exportCsv()} loading={exporting} data-testid="audit-export">
        {t("exportCsv")}
      </Button>
    </Stack>
  );

  return (
    <DataTable
      title={t("title")}
      toolbar={filtersBar}
      columns={columns}
      rows={rows}
      rowTestId="audit-row"
      query={query}
      empty={t("empty")}
      scrollTestId="audit-scroll"
    />
  );
}
