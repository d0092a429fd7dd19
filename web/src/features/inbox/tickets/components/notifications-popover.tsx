import NotificationsIcon from "@mui/icons-material/Notifications";
import { Avatar, Badge, IconButton, List, ListItemAvatar, ListItemButton, ListItemText, Popover, Tooltip, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useSessionUser } from "../../../../lib/session/session-context";
import { api } from "../../../../lib/api-client";
import { useRealtimeRoom } from "../../../../lib/realtime";
import { VOLUME, readPreference } from "../../../../lib/preferences";
import { stripWhatsAppMarkup } from "../../shared/whatsapp-markup";
import { ticketKeys } from "../api/tickets-list";
import { playNotificationSound } from "../notification-sound";
import { shouldNotify, titleWithCount } from "../notification-rules";
import { useInboxRealtime } from "../use-inbox-realtime";

const unreadTicketsOptions = () => ({
  queryKey: ticketKeys.unread(),
  queryFn: () => api.get<{ tickets: TicketView[] }>("/tickets", { query: { withUnreadMessages: "true", pageNumber: 1 } }),
  staleTime: 60_000,
  meta: { silentError: true },
});

/**
 * The top bar's bell (spec 1 "Main layout"): tickets with unread customer messages the user may see, a chime at the
 * saved volume for each new one, and the unread count in the browser tab title. Also keeps the inbox caches live.
 */
export function NotificationsPopover() {
  const { t } = useTranslation("tickets");
  const user = useSessionUser();
  const navigate = useNavigate();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [live, setLive] = useState<Map<number, TicketView | null>>(new Map());
  const seed = useQuery(unreadTicketsOptions());
  useRealtimeRoom("joinNotification");

  const items = useMemo(() => {
    const byId = new Map<number, TicketView>();
    for (const ticket of seed.data?.tickets ?? []) if (ticket.unreadMessages > 0 && shouldNotify(user, ticket)) byId.set(ticket.id, ticket);
    for (const [id, ticket] of live) {
      if (ticket && ticket.unreadMessages > 0) byId.set(id, ticket);
      else byId.delete(id);
    }
    return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }, [seed.data, live, user]);

  const put = (id: number, ticket: TicketView | null) => setLive((prev) => new Map(prev).set(id, ticket));

  useInboxRealtime({
    onMessage: ({ action, message, ticket }) => {
      if (action !== "create" || message.fromMe || !shouldNotify(user, ticket)) return;
      const viewing = location.pathname === `/tickets/${ticket.uuid}` && document.visibilityState === "visible";
      if (viewing) return;
      put(ticket.id, ticket);
      playNotificationSound(readPreference(VOLUME));
      if (typeof Notification !== "undefined" && Notification.permission === "granted" && document.visibilityState !== "visible") {
        const n = new Notification(t("notifications.from", { name: ticket.contact?.name ?? "" }), { body: stripWhatsAppMarkup(message.body), tag: String(ticket.id) });
        n.onclick = () => {
          window.focus();
          navigate(`/tickets/${ticket.uuid}`);
        };
      }
    },
    onUnreadCleared: (ticketId) => put(ticketId, null),
    onTicket: (ticket) => {
      if (ticket.unreadMessages === 0 || !shouldNotify(user, ticket)) put(ticket.id, null);
    },
  });

  useEffect(() => {
    if (typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission().catch(() => undefined);
  }, []);

  const base = t("common:appName");
  useEffect(() => {
    document.title = titleWithCount(base, items.length);
  }, [base, items.length]);

  return (
    <>
      <Tooltip title={t("common:notifications")}>
        <IconButton color="inherit" aria-label={t("common:notifications")} onClick={(e) => setAnchor(e.currentTarget)} data-testid="notifications-bell">
          <Badge color="error" badgeContent={items.length} data-testid="notifications-count">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        {items.length === 0 ? (
          <Typography sx={{ p: 2 }}>{t("common:noNotifications")}</Typography>
        ) : (
          <List sx={{ width: 340, maxHeight: 420, overflowY: "auto" }} dense>
            {items.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.uuid}`);
                }}
              >
                <ListItemAvatar>
                  <Avatar src={ticket.contact?.profilePicUrl || undefined}>{(ticket.contact?.name ?? "?").slice(0, 1)}</Avatar>
                </ListItemAvatar>
                <ListItemText primary={`${ticket.contact?.name ?? ""} (${ticket.unreadMessages})`} secondary={stripWhatsAppMarkup(ticket.lastMessage)} secondaryTypographyProps={{ noWrap: true }} />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
