import { Avatar, Badge, Box, Button, Chip, ListItemButton, Stack, Tooltip, Typography } from "@mui/material";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { formatDate, formatTime } from "@atende/shared/domain/format/dates";
import { AgeChip } from "../../shared/components/age-chip";
import { stripWhatsAppMarkup } from "../../shared/whatsapp-markup";
import { useTicketButtons } from "../ticket-buttons";
import { useNow } from "../../../../hooks/use-now";
import { cardSla, SlaChip } from "./sla-chip";
import { ChannelIcon } from "../../../../components/channels/channel-icon";
import { channelOfProvider } from "@atende/shared/domain/channels/channel-providers";

type Props = {
  ticket: TicketView;
  selected: boolean;
  onOpen: (ticket: TicketView) => void;
  onAccept: (ticket: TicketView) => void;
  onClose: (ticket: TicketView) => void;
  onTransfer: (ticket: TicketView) => void;
  onReopen: (ticket: TicketView) => void;
  busy?: boolean;
};

const lastTime = (value: string) => {
  const d = new Date(value);
  return formatDate(d) === formatDate(new Date()) ? formatTime(d) : formatDate(d);
};

/** How each card button looks (which ones show comes from the shared transition table). */
const CARD_BUTTON = {
  accept: { label: "accept", variant: "contained", color: "success" },
  reopen: { label: "reopen", variant: "outlined", color: "primary" },
  transfer: { label: "transfer", variant: "outlined", color: "primary" },
  resolve: { label: "close", variant: "outlined", color: "error" },
} as const;

/** One ticket of the list (spec 1 "Ticket cards"). */
export const TicketCard = memo(function TicketCard({ ticket, selected, onOpen, onAccept, onClose, onTransfer, onReopen, busy }: Props) {
  const { t } = useTranslation("tickets");
  const buttons = useTicketButtons("card", ticket);
  const handlers = { accept: onAccept, reopen: onReopen, transfer: onTransfer, resolve: onClose };
  const name = ticket.contact?.name || ticket.contact?.number || t("unknownContact");
  const stop = (fn: (ticket: TicketView) => void) => (e: React.MouseEvent) => {
    e.stopPropagation();
    fn(ticket);
  };
  const preview = ticket.presence ? t(`presence.${ticket.presence}`) : stripWhatsAppMarkup(ticket.lastMessage);
  // the card turns amber at 80 % of an SLA target and red on a breach (issue 13)
  const slaState = cardSla(ticket, useNow(30_000))?.state ?? null;
  return (
    <ListItemButton
      selected={selected}
      onClick={() => onOpen(ticket)}
      data-testid="ticket-card"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      data-sla={slaState ?? undefined}
      sx={{
        alignItems: "flex-start",
        gap: 1.5,
        borderLeft: 6,
        borderLeftColor: ticket.queue?.color ?? "grey.400",
        py: 1,
        ...(slaState === "warning" ? { bgcolor: "rgba(237, 108, 2, 0.12)" } : slaState === "breached" ? { bgcolor: "rgba(211, 47, 47, 0.12)" } : {}),
      }}
    >
      <Avatar src={ticket.contact?.profilePicUrl || undefined} alt={name} sx={{ mt: 0.5 }}>
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} alignItems="center">
          <Typography noWrap fontWeight={600} sx={{ flex: 1, minWidth: 0 }} data-testid="ticket-contact">
            {name}
          </Typography>
          <AgeChip since={ticket.updatedAt} />
          <Typography variant="caption" color="text.secondary">
            {lastTime(ticket.updatedAt)}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} alignItems="center">
          <Typography variant="body2" noWrap color={ticket.presence ? "success.main" : "text.secondary"} sx={{ flex: 1, minWidth: 0, fontStyle: ticket.presence ? "italic" : undefined }} data-testid="ticket-last-message">
            {preview || "\u00a0"}
          </Typography>
          {ticket.unreadMessages > 0 && <Badge color="success" badgeContent={ticket.unreadMessages} max={999} data-testid="ticket-unread" sx={{ mr: 1.5 }} />}
        </Stack>
        <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" sx={{ mt: 0.5 }}>
          <Chip size="small" data-testid="ticket-queue" label={ticket.queue?.name ?? t("noQueue")} sx={{ bgcolor: ticket.queue?.color ?? "grey.500", color: "#fff", height: 20 }} />
          <SlaChip ticket={ticket} />
          {ticket.whatsapp && (
            // the connection the conversation came through, and its kind (QR code or the official Cloud API)
            <Chip
              size="small"
              variant="outlined"
              data-testid="ticket-connection"
              data-provider={ticket.whatsapp.provider === "cloudapi" ? "cloudapi" : "beta"}
              data-channel={channelOfProvider(ticket.whatsapp.provider)}
              icon={<ChannelIcon channel={channelOfProvider(ticket.whatsapp.provider)} titleAccess={undefined} aria-hidden />}
              title={t(`name.${channelOfProvider(ticket.whatsapp.provider)}`, { ns: "channels" })}
              label={ticket.whatsapp.name}
              sx={{ height: 20, "& .MuiChip-icon": { fontSize: 14 } }}
            />
          )}
          {ticket.user && ticket.status !== "pending" && <Chip size="small" variant="outlined" label={ticket.user.name} sx={{ height: 20 }} />}
          {ticket.tags.map((tag) => (
            <Chip key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: "#fff", height: 20 }} />
          ))}
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 0.75 }}>
          {buttons.map((action) => {
            const b = CARD_BUTTON[action];
            const button = (
              <Button key={action} size="small" variant={b.variant} color={b.color} onClick={stop(handlers[action])} disabled={busy}>
                {t(`actions.${b.label}`)}
              </Button>
            );
            return action === "reopen" ? (
              <Tooltip key={action} title={t("actions.reopenHint")}>
                {button}
              </Tooltip>
            ) : (
              button
            );
          })}
        </Stack>
      </Box>
    </ListItemButton>
  );
});
