import AddIcon from "@mui/icons-material/Add";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import { Badge, Box, Button, Chip, FormControlLabel, IconButton, Paper, Stack, Switch, Tab, Tabs, Tooltip } from "@mui/material";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { can } from "@atende/shared/domain/permissions/permissions";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useIsAdmin, useSessionUser } from "../../../../lib/session/session-context";
import { useRealtimeRoom } from "../../../../lib/realtime";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog";
import { searchTerm, useDebounced } from "../../../../hooks/use-debounced";
import { useCloseAll } from "../api/ticket";
import { type TicketListParams, useTicketsList } from "../api/tickets-list";
import { lazyPage } from "../../../../lib/lazy-page";
import { TicketList } from "./ticket-list";
import { SearchResults } from "../../search/components/search-results";

// opened by a click: their code (forms, pickers) is not part of the list's first screen (issue 15, ADR 0047)
const NewTicketDialog = lazyPage(() => import("./new-ticket-dialog").then((m) => m.NewTicketDialog));
const TransferDialog = lazyPage(() => import("./transfer-dialog").then((m) => m.TransferDialog));
// the search tab's text, tag and user filters (pickers), loaded when the tab is first opened
const SearchFilters = lazyPage(() => import("./tickets-search-filters").then((m) => m.TicketsSearchFilters));

/** When the list fetches the search tab's code (after the first cards are up). */
const SEARCH_PREFETCH_MS = 1_000;

type MainTab = "open" | "closed" | "search";
type SubTab = "open" | "pending";

/** The left column of the tickets screen: tabs open (assigned/pending), closed and search (spec 1 "Tickets screen"). */
export function TicketsManager({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation("tickets");
  const isAdmin = useIsAdmin();
  // admins and supervisors (docs/adr/0101): every queue's tickets, and the cockpit's filters (?queue=, ?user=)
  const seesAll = can(useSessionUser().profile, "tickets-manager:showall");
  const [params, setParams] = useSearchParams();
  const focusQueue = seesAll ? Number(params.get("queue")) || null : null;
  const focusUser = seesAll ? Number(params.get("user")) || null : null;
  const focus: TicketListParams = focusQueue ? { queueIds: [focusQueue] } : focusUser ? { users: [focusUser] } : {};
  const focused = focusQueue !== null || focusUser !== null;
  const [tab, setTab] = useState<MainTab>("open");
  const [sub, setSub] = useState<SubTab>(focusQueue ? "pending" : "open");
  const [showAll, setShowAll] = useState(false);
  const [text, setText] = useState("");
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const [newOpen, setNewOpen] = useState(false);
  const [closeAllOpen, setCloseAllOpen] = useState(false);
  const [transfer, setTransfer] = useState<TicketView | null>(null);
  const search = useDebounced(searchTerm(text, SEARCH_MIN_CHARS), DEBOUNCE_SEARCH_MS);
  const closeAll = useCloseAll();

  const openParams: TicketListParams = { status: "open", showAll: seesAll && (showAll || focused), ...focus };
  const pendingParams: TicketListParams = { status: "pending", showAll: seesAll && (showAll || focused), ...focus };
  const closedParams: TicketListParams = { status: "closed", showAll: seesAll && (showAll || focused), ...focus };
  const searchParams: TicketListParams = { searchParam: search, tags: tagIds, users: userIds, showAll: true };
  useRealtimeRoom("joinTickets", "open");
  useRealtimeRoom("joinTickets", "pending");
  useRealtimeRoom("joinTickets", "closed", tab === "closed");
  useEffect(() => {
    // the search tab's code, once the list is up: the tab then opens at once
    const timer = setTimeout(() => void SearchFilters.load().catch(() => undefined), SEARCH_PREFETCH_MS);
    return () => clearTimeout(timer);
  }, []);
  const openCount = useTicketsList(openParams).data?.pages[0]?.count ?? 0;
  const pendingCount = useTicketsList(pendingParams).data?.pages[0]?.count ?? 0;

  return (
    <Paper square elevation={0} sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0, borderRight: 1, borderColor: "divider" }}>
      <Tabs value={tab} onChange={(_e, v: MainTab) => setTab(v)} variant="fullWidth">
        <Tab value="open" label={t("tabs.open")} data-testid="tab-open" />
        <Tab value="closed" label={t("tabs.closed")} data-testid="tab-closed" />
        <Tab value="search" label={t("tabs.search")} data-testid="tab-search" />
      </Tabs>
      {tab === "search" ? (
        <Suspense fallback={null}>
          <SearchFilters text={text} onText={setText} tagIds={tagIds} onTags={setTagIds} userIds={userIds} onUsers={setUserIds} />
        </Suspense>
      ) : (
        <Stack direction="row" alignItems="center" spacing={1} sx={{ px: 1, py: 0.5, borderBottom: 1, borderColor: "divider" }}>
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setNewOpen(true)} data-testid="new-ticket">
            {t("new")}
          </Button>
          {focused && (
            <Chip size="small" color="warning" label={t("supervisor:filter.label")} onDelete={() => setParams({})} data-testid="cockpit-filter" />
          )}
          <Box sx={{ flex: 1 }} />
          {seesAll && !focused && (
            <FormControlLabel control={<Switch size="small" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />} label={t("showAll")} slotProps={{ typography: { variant: "body2" } }} />
          )}
          {isAdmin && tab === "open" && (
            <Tooltip title={t("closeAll.button")}>
              <IconButton size="small" onClick={() => setCloseAllOpen(true)} aria-label={t("closeAll.button")}>
                <DoneAllIcon />
              </IconButton>
            </Tooltip>
          )}
        </Stack>
      )}
      {tab === "open" && (
        <Tabs value={sub} onChange={(_e, v: SubTab) => setSub(v)} variant="fullWidth" sx={{ minHeight: 40 }}>
          <Tab
            value="open"
            sx={{ minHeight: 40 }}
            data-testid="subtab-open"
            label={
              <Badge color="primary" badgeContent={openCount} max={999} sx={{ pr: 2 }}>
                {t("tabs.assigned")}
              </Badge>
            }
          />
          <Tab
            value="pending"
            sx={{ minHeight: 40 }}
            data-testid="subtab-pending"
            label={
              <Badge color="secondary" badgeContent={pendingCount} max={999} sx={{ pr: 2 }}>
                {t("tabs.pending")}
              </Badge>
            }
          />
        </Tabs>
      )}
      {tab === "open" && sub === "open" && <TicketList params={openParams} selectedUuid={selectedUuid} onTransfer={setTransfer} />}
      {tab === "open" && sub === "pending" && <TicketList params={pendingParams} selectedUuid={selectedUuid} onTransfer={setTransfer} />}
      {tab === "closed" && <TicketList params={closedParams} selectedUuid={selectedUuid} onTransfer={setTransfer} />}
      {/* text alone: the full-text results with snippets (docs/adr/0035); with tag or user filters, the ticket list */}
      {tab === "search" && search && !tagIds.length && !userIds.length && <SearchResults q={search} selectedUuid={selectedUuid} />}
      {tab === "search" && (tagIds.length > 0 || userIds.length > 0) && <TicketList params={searchParams} selectedUuid={selectedUuid} onTransfer={setTransfer} enabled />}
      <Suspense fallback={null}>
        {newOpen && <NewTicketDialog open onClose={() => setNewOpen(false)} />}
        {transfer && <TransferDialog ticket={transfer} onClose={() => setTransfer(null)} />}
      </Suspense>
      <ConfirmDialog
        open={closeAllOpen}
        title={t("closeAll.title")}
        busy={closeAll.isPending}
        onClose={() => setCloseAllOpen(false)}
        onConfirm={() => closeAll.mutate({ status: sub, selectedQueueIds: [] }, { onSettled: () => setCloseAllOpen(false) })}
      >
        {t(sub === "open" ? "closeAll.textOpen" : "closeAll.textPending")}
      </ConfirmDialog>
    </Paper>
  );
}
