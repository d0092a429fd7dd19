import ChatIcon from "@mui/icons-material/Chat";
import { Box, Paper, Tab, Tabs, Typography, useMediaQuery } from "@mui/material";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PageLoader } from "../../../../components/ui/page-loader";
import { lazyPage } from "../../../../lib/lazy-page";
import { TicketsManager } from "./tickets-manager";

/**
 * The conversation pane (messages, composer, media, notes, the header's dialogs) is its own chunk: /tickets shows the
 * list first and fetches it alongside; /tickets/{uuid} loads it with the page (issue 15, ADR 0047).
 */
/** When /tickets fetches the conversation pane's code for the first click (after the first cards are up). */
const CONVERSATION_PREFETCH_MS = 1_000;

export const TicketView = lazyPage(() => import("./ticket-view").then((m) => m.TicketView));

/** /tickets and /tickets/{uuid}: list on the left, conversation on the right; on narrow screens a Ticket / Atendimentos switch. */
export function TicketsPage() {
  const { t } = useTranslation("tickets");
  const { ticketId: uuid } = useParams();
  const narrow = useMediaQuery("(max-width:600px)", { noSsr: true });
  const [pane, setPane] = useState<"ticket" | "list">(uuid ? "ticket" : "list");
  useEffect(() => setPane(uuid ? "ticket" : "list"), [uuid]);

  const list = <TicketsManager selectedUuid={uuid} />;
  useEffect(() => {
    // the conversation's code, for the first click on a card: once the list is up, not while it loads
    const timer = setTimeout(() => void TicketView.load().catch(() => undefined), CONVERSATION_PREFETCH_MS);
    return () => clearTimeout(timer);
  }, []);
  const conversation = uuid ? (
    <Suspense fallback={<PageLoader />}>
      <TicketView key={uuid} uuid={uuid} />
    </Suspense>
  ) : (
    <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", justifyContent: "center", height: "100%", color: "text.secondary", gap: 1 }} data-testid="tickets-welcome">
      <ChatIcon sx={{ fontSize: 96, color: "primary.main", opacity: 0.7 }} />
      <Typography variant="h5" color="primary">
        {t("common:appName")}
      </Typography>
      <Typography>{t("welcome")}</Typography>
    </Box>
  );

  return (
    <Box sx={{ height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", minHeight: 0 }} data-testid="tickets-page">
      {narrow && (
        <Paper square elevation={1}>
          <Tabs value={pane} onChange={(_e, v: "ticket" | "list") => setPane(v)} variant="fullWidth">
            <Tab value="ticket" label={t("pane.ticket")} data-testid="pane-ticket" />
            <Tab value="list" label={t("pane.list")} data-testid="pane-list" />
          </Tabs>
        </Paper>
      )}
      <Box sx={{ flex: 1, minHeight: 0, display: "flex" }}>
        {(!narrow || pane === "list") && <Box sx={{ width: narrow ? "100%" : { sm: 340, md: 400 }, flexShrink: 0, minHeight: 0, display: "flex", flexDirection: "column" }}>{list}</Box>}
        {(!narrow || pane === "ticket") && <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{conversation}</Box>}
      </Box>
    </Box>
  );
}
