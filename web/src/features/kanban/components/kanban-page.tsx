import { Box, CircularProgress, Paper, Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useSessionUser } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { textOn } from "../../../components/ui/tag-chip";
import { kanbanKeys } from "../../../lib/query-keys";
import { useKanbanLanes, useKanbanTickets, useMoveTicket } from "../api/kanban";
import { type Lane, lanesOf, placeTickets } from "../kanban-rules";
import { KanbanCard, TICKET_DRAG_TYPE } from "./kanban-card";

const REFETCH_DELAY_MS = 400;

/** /kanban (plan flag useKanban): the user's queues' tickets in lanes by kanban tag; cards move by drag and drop or menu. */
export function KanbanPage() {
  const { t } = useTranslation("kanban");
  const user = useSessionUser();
  const qc = useQueryClient();
  const queueIds = useMemo(() => user.queues.map((q) => q.id), [user.queues]);
  const lanesQuery = useKanbanLanes();
  const ticketsQuery = useKanbanTickets(queueIds);
  const [over, setOver] = useState<string | null>(null);
  const move = useMoveTicket((step) => toast.success(t(step === "remove" ? "tagRemoved" : "tagAdded")));
  // a busy company sends many ticket/message events: one refetch per burst
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetchSoon = useCallback(() => {
    if (refetchTimer.current) return;
    refetchTimer.current = setTimeout(() => {
      refetchTimer.current = null;
      void qc.invalidateQueries({ queryKey: kanbanKeys.tickets(queueIds) });
    }, REFETCH_DELAY_MS);
  }, [qc, queueIds]);
  useEffect(() => () => clearTimeout(refetchTimer.current ?? undefined), []);
  useRealtime("ticket", refetchSoon);
  useRealtime("appMessage", refetchSoon);
  useRealtime("tag", () => void qc.invalidateQueries({ queryKey: kanbanKeys.all }));

  const lanes = useMemo(() => lanesOf(lanesQuery.data ?? [], t("openLane")), [lanesQuery.data, t]);
  const tickets = useMemo(() => ticketsQuery.data ?? [], [ticketsQuery.data]);
  const placed = useMemo(() => placeTickets(lanes, tickets), [lanes, tickets]);

  const moveTo = (ticket: TicketView, lane: Lane) =>
    // spec 3 section 8: kanban failures are only logged
    move.mutate({ ticketId: ticket.id, tagId: lane.tagId }, { onError: (e) => console.error("kanban move failed", e) });
  const laneOf = (ticketId: number) => lanes.find((l) => placed.get(l.key)?.some((x) => x.id === ticketId));

  if (lanesQuery.isLoading || ticketsQuery.isLoading) {
    return (
      <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
        <CircularProgress />
      </Box>
    );
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", boxSizing: "border-box" }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t("title")}
      </Typography>
      <Stack direction="row" spacing={1.5} sx={{ flex: 1, overflowX: "auto", pb: 1, alignItems: "stretch" }}>
        {lanes.map((lane) => {
          const cards = placed.get(lane.key) ?? [];
          return (
            <Paper
              key={lane.key}
              variant="outlined"
              role="region"
              aria-label={lane.name}
              data-testid="kanban-lane"
              data-lane={lane.tagId ?? "open"}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes(TICKET_DRAG_TYPE)) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                if (over !== lane.key) setOver(lane.key);
              }}
              onDragLeave={() => setOver((cur) => (cur === lane.key ? null : cur))}
              onDrop={(e) => {
                e.preventDefault();
                setOver(null);
                const id = Number(e.dataTransfer.getData(TICKET_DRAG_TYPE));
                const ticket = tickets.find((x) => x.id === id);
                if (ticket && laneOf(id)?.key !== lane.key) moveTo(ticket, lane);
              }}
              sx={{
                width: 280,
                minWidth: 280,
                display: "flex",
                flexDirection: "column",
                bgcolor: over === lane.key ? "action.hover" : "background.default",
              }}
            >
              <Box sx={{ px: 1.5, py: 1, bgcolor: lane.color, color: textOn(lane.color), borderTopLeftRadius: 4, borderTopRightRadius: 4, display: "flex", gap: 1 }}>
                <Typography variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }} noWrap>
                  {lane.name}
                </Typography>
                <Typography variant="subtitle2" component="span" aria-label={t("count", { count: cards.length })}>
                  {cards.length}
                </Typography>
              </Box>
              <Stack spacing={1} sx={{ p: 1, overflowY: "auto", flex: 1 }}>
                {cards.map((ticket) => (
                  <KanbanCard key={ticket.id} ticket={ticket} lanes={lanes} laneKey={lane.key} onMove={(target) => moveTo(ticket, target)} />
                ))}
                {cards.length === 0 && (
                  <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
                    {t("emptyLane")}
                  </Typography>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Box>
  );
}
