import { Box, CircularProgress, List, Typography } from "@mui/material";
import { startTransition, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useInfiniteQueryScroll } from "../../../../hooks/use-infinite-scroll";
import { type TicketListParams, useTicketsList } from "../api/tickets-list";
import { useTicketActions } from "../use-ticket-actions";
import { TicketCard } from "./ticket-card";

/**
 * Cards in the list's first render: a screenful — the window's height less the bars above the list (~200 px), at
 * ~110 px a card, counted generously (150 px, 100 px) — the rest of the page follows right after as a low-priority
 * update, so the first cards are not held back by rendering the ones below the fold (issue 15, ADR 0047, ADR 0052:
 * 10 before: the screenful of a ~1,100 px high window; 7 in an 800 px one).
 */
export const firstRenderCards = (viewportHeight = typeof window === "undefined" ? 1_000 : window.innerHeight) => Math.min(20, Math.max(4, Math.ceil((viewportHeight - 150) / 100)));

/** One tab's ticket list: infinite scroll within 100 px of the bottom. */
export function TicketList({ params, selectedUuid, onTransfer, enabled = true }: { params: TicketListParams; selectedUuid?: string; onTransfer: (t: TicketView) => void; enabled?: boolean }) {
  const { t } = useTranslation("tickets");
  const navigate = useNavigate();
  const query = useTicketsList(params, enabled);
  const actions = useTicketActions();
  const tickets = useMemo(() => {
    const seen = new Set<number>();
    return (query.data?.pages ?? []).flatMap((p) => p.tickets).filter((ticket) => (seen.has(ticket.id) ? false : (seen.add(ticket.id), true)));
  }, [query.data]);
  const [allCards, setAllCards] = useState(false);
  const [firstCards] = useState(() => firstRenderCards());
  const shortened = !allCards && tickets.length > firstCards;
  useEffect(() => {
    if (!shortened) return;
    const timer = setTimeout(() => startTransition(() => setAllCards(true)), 0);
    return () => clearTimeout(timer);
  }, [shortened]);
  const shown = shortened ? tickets.slice(0, firstCards) : tickets;
  const onScroll = useInfiniteQueryScroll(query);
  const open = (ticket: TicketView) => navigate(`/tickets/${ticket.uuid}`);

  return (
    <Box sx={{ flex: 1, overflowY: "auto", minHeight: 0 }} onScroll={onScroll} data-testid="ticket-list" data-status={params.status ?? "search"}>
      <List disablePadding>
        {shown.map((ticket) => (
          <TicketCard
            key={ticket.id}
            ticket={ticket}
            selected={ticket.uuid === selectedUuid}
            onOpen={open}
            onAccept={actions.accept}
            onClose={actions.close}
            onReopen={actions.reopen}
            onTransfer={onTransfer}
            busy={actions.busy}
          />
        ))}
      </List>
      {(query.isLoading || query.isFetchingNextPage) && (
        <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
          <CircularProgress size={24} />
        </Box>
      )}
      {!query.isLoading && tickets.length === 0 && (
        <Box sx={{ p: 3, textAlign: "center" }}>
          <Typography fontWeight={600}>{t("empty.title")}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t("empty.text")}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
