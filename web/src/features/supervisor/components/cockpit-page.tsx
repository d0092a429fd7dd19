import { Alert, Box, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { agentOverCapacity, queueAtRisk, type SupervisorAgent, type SupervisorQueue } from "@atende/shared/contracts/http/supervisor";
import { useLiveOverview } from "../api/overview";

/** Seconds as "1 h 05 min", "3 min", "45 s" (units read the same in pt, en and es). */
export const durationLabel = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
};

const STATUS_COLOR = { online: "success", paused: "warning", offline: "default" } as const;

function QueuesTable({ queues }: { queues: SupervisorQueue[] }) {
  const { t } = useTranslation("supervisor");
  const navigate = useNavigate();
  return (
    <Table size="small" data-testid="cockpit-queues">
      <TableHead>
        <TableRow>
          <TableCell>{t("queues.name")}</TableCell>
          <TableCell align="right">{t("queues.waiting")}</TableCell>
          <TableCell align="right">{t("queues.longestWait")}</TableCell>
          <TableCell align="right">{t("queues.open")}</TableCell>
          <TableCell align="right">{t("queues.slaAtRisk")}</TableCell>
          <TableCell align="right">{t("queues.slaBreached")}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {queues.map((q) => {
          const risk = queueAtRisk(q);
          return (
            <TableRow
              key={q.id}
              hover
              onClick={() => navigate(`/tickets?queue=${q.id}`)}
              data-testid={`cockpit-queue-${q.id}`}
              data-risk={risk ? (q.slaBreached ? "breached" : "at-risk") : "ok"}
              title={t("queues.filter")}
              sx={{ cursor: "pointer", bgcolor: q.slaBreached ? "error.light" : risk ? "warning.light" : undefined }}
            >
              <TableCell>
                {q.name} {risk && <Chip size="small" color={q.slaBreached ? "error" : "warning"} label={t(q.slaBreached ? "queues.breached" : "queues.atRisk")} />}
              </TableCell>
              <TableCell align="right">{q.waiting}</TableCell>
              <TableCell align="right">{q.waiting ? durationLabel(q.longestWaitSeconds) : "-"}</TableCell>
              <TableCell align="right">{q.openTickets}</TableCell>
              <TableCell align="right">{q.slaAtRisk}</TableCell>
              <TableCell align="right">{q.slaBreached}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function AgentsTable({ agents, now }: { agents: SupervisorAgent[]; now: number }) {
  const { t } = useTranslation("supervisor");
  const navigate = useNavigate();
  return (
    <Table size="small" data-testid="cockpit-agents">
      <TableHead>
        <TableRow>
          <TableCell>{t("agents.name")}</TableCell>
          <TableCell>{t("agents.status")}</TableCell>
          <TableCell align="right">{t("agents.since")}</TableCell>
          <TableCell align="right">{t("agents.load")}</TableCell>
          <TableCell align="right">{t("agents.replyDue")}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {agents.map((a) => {
          const over = agentOverCapacity(a);
          const due = a.oldestReplyDueSeconds;
          return (
            <TableRow
              key={a.id}
              hover
              onClick={() => navigate(`/tickets?user=${a.id}`)}
              data-testid={`cockpit-agent-${a.id}`}
              data-over={over ? "yes" : "no"}
              title={t("agents.filter")}
              sx={{ cursor: "pointer", bgcolor: over ? "error.light" : undefined }}
            >
              <TableCell>
                {a.name} {over && <Chip size="small" color="error" label={t("agents.overCapacity")} />}
              </TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" color={STATUS_COLOR[a.status]} label={t(`agents.statuses.${a.status}`)} />
              </TableCell>
              <TableCell align="right">{a.statusSince ? durationLabel((now - Date.parse(a.statusSince)) / 1000) : "-"}</TableCell>
              <TableCell align="right">
                {a.openTickets} / {a.capacity}
              </TableCell>
              <TableCell align="right" sx={{ color: due !== null && due < 0 ? "error.main" : undefined }}>
                {due === null ? "-" : due < 0 ? t("agents.overdue", { time: durationLabel(-due) }) : t("agents.dueIn", { time: durationLabel(due) })}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** /supervisor (admins and supervisors): every queue and attendant, live; a click opens the ticket list filtered. */
export function CockpitPage() {
  const { t } = useTranslation("supervisor");
  const overview = useLiveOverview();
  const data = overview.data;
  const now = overview.dataUpdatedAt || Date.now();
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} data-testid="cockpit">
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title")}
      </Typography>
      {overview.isError && <Alert severity="error">{t("loadError")}</Alert>}
      <Paper variant="outlined" sx={{ mb: 2, overflowX: "auto" }}>
        <Typography variant="h6" sx={{ px: 2, pt: 1 }}>
          {t("queues.title")}
        </Typography>
        {data && (data.queues.length ? <QueuesTable queues={data.queues} /> : <Typography sx={{ p: 2 }}>{t("queues.none")}</Typography>)}
      </Paper>
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Typography variant="h6" sx={{ px: 2, pt: 1 }}>
          {t("agents.title")}
        </Typography>
        {data && <AgentsTable agents={data.agents} now={now} />}
      </Paper>
    </Box>
  );
}
