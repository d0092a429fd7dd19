import TimerIcon from "@mui/icons-material/Timer";
import TimerOffIcon from "@mui/icons-material/TimerOff";
import { Chip, Tooltip } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatRemaining, REPLY_WINDOW_WARNING_MS, type ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";

/**
 * The Cloud API customer service window in the ticket header: a countdown while open (amber in the last hour),
 * "closed" after (templates only). Nothing for connections without a window (QR).
 */
export function ReplyWindowBadge({ window: w, now = () => Date.now() }: { window: ReplyWindow | undefined; now?: () => number }) {
  const { t } = useTranslation("cloudApi");
  const [tick, setTick] = useState(now());
  useEffect(() => {
    if (w?.kind !== "open") return;
    const id = setInterval(() => setTick(now()), 1000);
    return () => clearInterval(id);
  }, [w, now]);
  if (!w || w.kind === "none") return null;
  if (w.kind === "closed")
    return (
      <Tooltip title={t("window.closedHint")}>
        <Chip size="small" color="error" variant="outlined" icon={<TimerOffIcon />} label={t("window.closed")} data-testid="reply-window" data-state="closed" />
      </Tooltip>
    );
  const remaining = Date.parse(w.closesAt) - tick;
  if (remaining <= 0)
    return <Chip size="small" color="error" variant="outlined" icon={<TimerOffIcon />} label={t("window.closed")} data-testid="reply-window" data-state="closed" />;
  const soon = remaining <= REPLY_WINDOW_WARNING_MS;
  return (
    <Tooltip title={t("window.openHint")}>
      <Chip
        size="small"
        color={soon ? "warning" : "success"}
        variant={soon ? "filled" : "outlined"}
        icon={<TimerIcon />}
        label={t("window.open", { time: formatRemaining(remaining) })}
        data-testid="reply-window"
        data-state={soon ? "closing" : "open"}
      />
    </Tooltip>
  );
}
