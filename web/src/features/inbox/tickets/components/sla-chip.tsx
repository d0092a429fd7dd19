import { Chip, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { CycleSla, TicketView } from "@atende/shared/contracts/http/tickets";
import { slaDisplay, type SlaState } from "@atende/shared/domain/service-levels/sla";
import { useNow } from "../../../../hooks/use-now";

/** The card's colour for an SLA state (issue 13): amber at 80 % of a target, red once breached. */
export const SLA_COLORS: Record<SlaState, "success" | "warning" | "error"> = { ok: "success", warning: "warning", breached: "error" };

/** What a card shows of the ticket's clocks at `now` (null: no clock counting). */
export const cardSla = (ticket: Pick<TicketView, "sla" | "status">, now: Date) => slaDisplay(ticket.sla as CycleSla | null | undefined, ticket.status, now);

const useDuration = () => {
  const { t } = useTranslation("sla");
  return (ms: number) => {
    const minutes = Math.max(0, Math.ceil(Math.abs(ms) / 60_000));
    if (minutes < 60) return t("time.m", { count: minutes });
    if (minutes < 24 * 60) return t("time.h", { h: Math.floor(minutes / 60), m: minutes % 60 });
    return t("time.d", { count: Math.floor(minutes / (24 * 60)) });
  };
};

/**
 * The time left of the ticket's most urgent SLA clock (wall time until it falls due; the due instant already skips
 * nights, weekends and holidays), re-rendered every 30 s, so the card turns amber and red on time even between
 * server updates.
 */
export function SlaChip({ ticket }: { ticket: Pick<TicketView, "sla" | "status"> }) {
  const { t } = useTranslation("sla");
  const now = useNow(30_000);
  const duration = useDuration();
  const shown = cardSla(ticket, now);
  if (!shown) return null;
  const kind = t(`chip.${shown.kind}`);
  const label = shown.paused
    ? t("chip.paused", { kind })
    : shown.leftMs !== null && shown.leftMs < 0
      ? t("chip.overdue", { kind, time: duration(shown.leftMs) })
      : t("chip.left", { kind, time: duration(shown.leftMs ?? 0) });
  const tip = shown.state === "breached" ? "chip.breachedTip" : shown.state === "warning" ? "chip.warningTip" : "chip.okTip";
  return (
    <Tooltip title={t(tip)}>
      <Chip size="small" data-testid="ticket-sla" data-sla={shown.state} color={SLA_COLORS[shown.state]} variant={shown.state === "ok" ? "outlined" : "filled"} label={label} sx={{ height: 20 }} />
    </Tooltip>
  );
}
