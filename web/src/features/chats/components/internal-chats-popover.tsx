import ForumIcon from "@mui/icons-material/Forum";
import { Badge, Divider, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSession } from "../../../lib/session/session-context";
import { useChatsRealtime } from "../hooks/use-chats-realtime";
import { useUnreadChats } from "../hooks/use-unread-chats";

/** Top-bar button: how many chats have unread messages; the popover links each to /chats/{uuid}. */
export function InternalChatsPopover() {
  const { t } = useTranslation("chats");
  const session = useSession();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useChatsRealtime();
  const unread = useUnreadChats();
  if (!session.planFlags.useInternalChat) return null;
  const go = (path: string) => {
    setAnchor(null);
    navigate(path);
  };
  return (
    <>
      <Tooltip title={t("popover.open")}>
        <IconButton color="inherit" aria-label={t("popover.open")} onClick={(e) => setAnchor(e.currentTarget)} data-testid="internal-chats-button">
          <Badge color="secondary" badgeContent={unread.length} data-testid="internal-chats-count">
            <ForumIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        <List dense sx={{ width: 320, maxHeight: 400, overflowY: "auto" }} data-testid="internal-chats-popover">
          {unread.length === 0 && (
            <Typography color="text.secondary" sx={{ px: 2, py: 1 }}>
              {t("popover.empty")}
            </Typography>
          )}
          {unread.map(({ chat, unreads }) => (
            <ListItemButton key={chat.id} onClick={() => go(`/chats/${chat.uuid}`)}>
              <ListItemText primary={chat.title} secondary={`${t("unread", { count: unreads })} · ${chat.lastMessage}`} slotProps={{ secondary: { noWrap: true } }} />
            </ListItemButton>
          ))}
          <Divider />
          <ListItemButton onClick={() => go("/chats")}>
            <ListItemText primary={t("popover.seeAll")} />
          </ListItemButton>
        </List>
      </Popover>
    </>
  );
}
