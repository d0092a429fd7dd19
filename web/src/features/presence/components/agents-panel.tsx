import CircleIcon from "@mui/icons-material/Circle";
import { Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRealtime } from "../../../lib/realtime";
import { agentKeys, useAgents } from "../api/agents";
import { STATUS_COLOR } from "./agent-status-switch";

/** h:mm:ss (or m:ss) since `since`. */
const elapsed = (since: string | null, now: number) => {
  if (!since) return "-";
  const s = Math.max(0, Math.floor((now - new Date(since).getTime()) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
};

/**
 * Dashboard (admins): every attendant's status, open tickets over capacity and time in status, live: status events
 * update the rows (the top bar's listener), ticket events refresh the open counts (at most every 2 s).
 */
export function AgentsPanel() {
  const { t } = useTranslation("serviceLevels");
  const agents = useAgents();
  const qc = useQueryClient();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  useRealtime("ticket", () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void qc.invalidateQueries({ queryKey: agentKeys.list() });
    }, 2000);
  });
  return (
    <Paper variant="outlined" sx={{ mb: 2, overflowX: "auto" }} data-testid="agents-panel">
      <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5 }}>
        {t("panel.title")}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("panel.name")}</TableCell>
            <TableCell>{t("panel.status")}</TableCell>
            <TableCell>{t("panel.timeInStatus")}</TableCell>
            <TableCell align="right">{t("panel.open")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(agents.data ?? []).map((a) => (
            <TableRow key={a.userId} data-testid={`agent-row-${a.userId}`} data-status={a.status}>
              <TableCell>{a.name}</TableCell>
              <TableCell>
                <CircleIcon fontSize="inherit" color={STATUS_COLOR[a.status]} sx={{ mr: 0.5, verticalAlign: "middle" }} />
                {a.status === "paused" && a.pauseReason ? t("status.pausedFor", { reason: a.pauseReason }) : t(`status.${a.status}`)}
              </TableCell>
              <TableCell>{elapsed(a.since, now)}</TableCell>
              <TableCell align="right" data-testid={`agent-open-${a.userId}`}>
                {t("panel.openOf", { open: a.openTickets, capacity: a.capacity })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
