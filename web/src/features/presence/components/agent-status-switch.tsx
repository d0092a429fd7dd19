import CircleIcon from "@mui/icons-material/Circle";
import { Button, Divider, ListSubheader, Menu, MenuItem } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AgentStatus } from "@atende/shared/domain/service-levels/distribution";
import { useSessionUser } from "../../../lib/session/session-context";
import { useAgentEvents, useMyAgent, usePauseReasons, useSetMyStatus } from "../api/agents";

export const STATUS_COLOR: Record<AgentStatus, "success" | "warning" | "disabled"> = { online: "success", paused: "warning", offline: "disabled" };

/** Top bar: my status (online, paused with a reason, offline), switched here (docs/adr/0032). */
export function AgentStatusSwitch() {
  const { t } = useTranslation("serviceLevels");
  const user = useSessionUser();
  useAgentEvents(user.id);
  const me = useMyAgent();
  const reasons = usePauseReasons();
  const set = useSetMyStatus();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const status = me.data?.status ?? "offline";
  const label = status === "paused" && me.data?.pauseReason ? t("status.pausedFor", { reason: me.data.pauseReason }) : t(`status.${status}`);
  const choose = (input: { status: AgentStatus; pauseReasonId?: number }) => {
    setAnchor(null);
    set.mutate(input);
  };
  return (
    <>
      <Button
        color="inherit"
        size="small"
        data-testid="agent-status"
        data-status={status}
        aria-label={t("switchLabel", { status: label })}
        startIcon={<CircleIcon fontSize="small" color={STATUS_COLOR[status]} />}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: "none", maxWidth: 200, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}
      >
        {label}
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem data-testid="agent-status-online" selected={status === "online"} onClick={() => choose({ status: "online" })}>
          <CircleIcon fontSize="small" color="success" sx={{ mr: 1 }} />
          {t("status.online")}
        </MenuItem>
        <Divider />
        <ListSubheader>{t("pauseHeading")}</ListSubheader>
        {(reasons.data ?? []).length === 0 && <MenuItem disabled>{t("noReasons")}</MenuItem>}
        {(reasons.data ?? []).map((r) => (
          <MenuItem key={r.id} data-testid={`agent-status-pause-${r.id}`} selected={status === "paused" && me.data?.pauseReasonId === r.id} onClick={() => choose({ status: "paused", pauseReasonId: r.id })}>
            <CircleIcon fontSize="small" color="warning" sx={{ mr: 1 }} />
            {r.name}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem data-testid="agent-status-offline" selected={status === "offline"} onClick={() => choose({ status: "offline" })}>
          <CircleIcon fontSize="small" color="disabled" sx={{ mr: 1 }} />
          {t("status.offline")}
        </MenuItem>
      </Menu>
    </>
  );
}
