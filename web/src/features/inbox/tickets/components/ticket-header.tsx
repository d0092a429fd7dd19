import MoreVertIcon from "@mui/icons-material/MoreVert";
import { Avatar, Box, Button, IconButton, Menu, MenuItem, Paper, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog";
import { useDeleteTicket } from "../api/ticket";
import { useTicketButtons } from "../ticket-buttons";
import { useTicketActions } from "../use-ticket-actions";
import { TicketTags } from "./ticket-tags";
import { TransferDialog } from "./transfer-dialog";
import type { ReplyWindow } from "@atende/shared/domain/cloud-api/reply-window";
import { ReplyWindowBadge } from "../../../../components/cloud-api/reply-window-badge";
import { SlaChip } from "./sla-chip";
import { ChannelIcon } from "../../../../components/channels/channel-icon";
import { channelOfProvider } from "@atende/shared/domain/channels/channel-providers";

/** How each header button looks (which ones show comes from the shared transition table). */
const HEADER_BUTTON = {
  accept: { id: "accept", label: "accept", variant: "contained", color: "success" },
  reopen: { id: "reopen", label: "reopen", variant: "contained", color: "primary" },
  return: { id: "return", label: "return", variant: "outlined", color: "primary" },
  resolve: { id: "close", label: "close", variant: "contained", color: "error" },
} as const;

/** Conversation header: contact (opens the drawer), owner, status actions, tags; delete for admins. */
export function TicketHeader({ ticket, onContactClick, replyWindow }: { ticket: TicketView; onContactClick: () => void; replyWindow?: ReplyWindow }) {
  const { t } = useTranslation("tickets");
  const buttons = useTicketButtons("header", ticket);
  const menuItems = useTicketButtons("headerMenu", ticket);
  const navigate = useNavigate();
  const actions = useTicketActions();
  const run = { accept: actions.accept, reopen: actions.reopen, return: actions.returnToQueue, resolve: actions.close };
  const remove = useDeleteTicket();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transfer, setTransfer] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const name = ticket.contact?.name || ticket.contact?.number || t("unknownContact");
  return (
    <Paper square elevation={0} sx={{ borderBottom: 1, borderColor: "divider", px: 1.5, py: 1 }} data-testid="ticket-header">
      <Stack direction="row" alignItems="center" spacing={1.5} useFlexGap flexWrap="wrap">
        <Stack direction="row" alignItems="center" spacing={1.5} sx={{ flex: 1, minWidth: 180, cursor: "pointer" }} onClick={onContactClick}>
          <Avatar src={ticket.contact?.profilePicUrl || undefined}>{name.slice(0, 1).toUpperCase()}</Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography fontWeight={600} noWrap data-testid="header-contact">
              {ticket.whatsapp && <ChannelIcon channel={channelOfProvider(ticket.whatsapp.provider)} fontSize="inherit" sx={{ mr: 0.5, verticalAlign: "-0.125em" }} />}
              {name} <Typography component="span" variant="caption" color="text.secondary">#{ticket.id}</Typography>
              {ticket.protocol && (
                <Typography component="span" variant="caption" color="text.secondary" data-testid="header-protocol" sx={{ ml: 1 }}>
                  {t("sla:protocol", { protocol: ticket.protocol })}
                </Typography>
              )}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {ticket.user ? t("assignedTo", { name: ticket.user.name }) : t(`status.${ticket.status}`)}
              {ticket.queue ? ` · ${ticket.queue.name}` : ""}
            </Typography>
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} alignItems="center">
          <SlaChip ticket={ticket} />
          <ReplyWindowBadge window={replyWindow} />
          {buttons.map((action) => {
            const b = HEADER_BUTTON[action];
            return (
              <Button key={action} size="small" variant={b.variant} color={b.color} onClick={() => run[action](ticket)} disabled={actions.busy} data-testid={`header-${b.id}`}>
                {t(`actions.${b.label}`)}
              </Button>
            );
          })}
          <IconButton aria-label={t("moreActions")} onClick={(e) => setMenu(e.currentTarget)}>
            <MoreVertIcon />
          </IconButton>
        </Stack>
      </Stack>
      <TicketTags ticket={ticket} />
      <Menu open={!!menu} anchorEl={menu} onClose={() => setMenu(null)}>
        {menuItems.includes("transfer") && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setTransfer(true);
            }}
            data-testid="header-transfer"
          >
            {t("actions.transfer")}
          </MenuItem>
        )}
        {menuItems.includes("delete") && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setConfirmDelete(true);
            }}
            data-testid="header-delete"
          >
            {t("actions.delete")}
          </MenuItem>
        )}
      </Menu>
      {transfer && <TransferDialog ticket={ticket} onClose={() => setTransfer(false)} />}
      <ConfirmDialog
        open={confirmDelete}
        title={t("deleteConfirm.title", { id: ticket.id })}
        busy={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(ticket.id, { onSuccess: () => navigate("/tickets"), onSettled: () => setConfirmDelete(false) })}
      >
        {t("deleteConfirm.text")}
      </ConfirmDialog>
    </Paper>
  );
}
