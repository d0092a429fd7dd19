import { Alert, Box, Chip, CircularProgress, LinearProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useSessionHosts, type SessionHostView } from "../api/session-hosts";

/** seconds since the last registry heartbeat past which a host is shown as silent (the fleet's stale time is 8 s) */
const SILENT_AFTER_S = 10;

const secondsAgo = (at: number, now: number) => Math.max(0, Math.round((now - at) / 1000));

function HostRow({ host, now }: { host: SessionHostView; now: number }) {
  const { t } = useTranslation("sessionHosts");
  const held = host.connections.length;
  const ago = secondsAgo(host.lastHeartbeatAt, now);
  const load = host.capacity > 0 ? Math.min(100, Math.round((held / host.capacity) * 100)) : 0;
  const state = ago > SILENT_AFTER_S ? "silent" : host.draining ? "draining" : held >= host.capacity ? "full" : "serving";
  return (
    <TableRow data-testid="session-host-row" data-host={host.hostId}>
      <TableCell>
        <Typography variant="body2" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
          {host.hostId}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {t("pid", { pid: host.pid })}
        </Typography>
      </TableCell>
      <TableCell>
        <Chip size="small" data-testid="session-host-state" data-state={state} label={t(`states.${state}`)} color={state === "serving" ? "success" : state === "silent" ? "error" : "warning"} />
      </TableCell>
      <TableCell sx={{ minWidth: 140 }}>
        <Typography variant="body2" data-testid="session-host-load">
          {t("load", { held, capacity: host.capacity })}
        </Typography>
        <LinearProgress variant="determinate" value={load} color={load >= 90 ? "error" : "primary"} />
      </TableCell>
      <TableCell data-testid="session-host-heartbeat">{t("heartbeat", { seconds: ago })}</TableCell>
      <TableCell>
        <Stack direction="row" flexWrap="wrap" gap={0.5}>
          {host.connections.map((c) => (
            <Chip
              key={`${c.companyId}-${c.whatsappId}`}
              size="small"
              variant="outlined"
              data-testid="session-host-connection"
              label={t("connection", { companyId: c.companyId, whatsappId: c.whatsappId, status: c.status })}
              color={c.status === "CONNECTED" ? "success" : "default"}
            />
          ))}
        </Stack>
      </TableCell>
    </TableRow>
  );
}

/** The operator's "Hosts de sessão" (Empresas area, issue 29): every session host, its load and its connections. */
export function SessionHostsTab() {
  const { t } = useTranslation("sessionHosts");
  const { data, isLoading, isError, dataUpdatedAt } = useSessionHosts();
  if (isLoading) return <CircularProgress size={24} />;
  if (isError || !data) return <Alert severity="error">{t("loadFailed")}</Alert>;
  const now = dataUpdatedAt || Date.now();
  const held = data.reduce((sum, h) => sum + h.connections.length, 0);
  const capacity = data.filter((h) => !h.draining).reduce((sum, h) => sum + h.capacity, 0);
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }} data-testid="session-hosts-summary">
        {t("summary", { hosts: data.length, held, capacity })}
      </Typography>
      {data.length === 0 ? (
        <Alert severity="warning">{t("none")}</Alert>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("columns.host")}</TableCell>
              <TableCell>{t("columns.state")}</TableCell>
              <TableCell>{t("columns.load")}</TableCell>
              <TableCell>{t("columns.heartbeat")}</TableCell>
              <TableCell>{t("columns.connections")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((h) => (
              <HostRow key={h.hostId} host={h} now={now} />
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
