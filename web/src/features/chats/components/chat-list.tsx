import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import { Badge, Box, IconButton, List, ListItemButton, ListItemText, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ChatResponse } from "@atende/shared/contracts/http/chats";
import { useSessionUser } from "../../../lib/session/session-context";
import { unreadsOf } from "../api/chats";

/** The caller's chats, newest activity first; the owner sees edit and delete on their chats. */
export function ChatList(props: { chats: ChatResponse[]; selectedId?: number; onSelect: (chat: ChatResponse) => void; onEdit: (chat: ChatResponse) => void; onDelete: (chat: ChatResponse) => void }) {
  const { t } = useTranslation("chats");
  const me = useSessionUser();
  if (props.chats.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        {t("empty")}
      </Typography>
    );
  return (
    <List dense disablePadding data-testid="chat-list">
      {props.chats.map((chat) => {
        const unreads = unreadsOf(chat, me.id);
        const owner = chat.ownerId === me.id;
        return (
          <ListItemButton key={chat.id} selected={chat.id === props.selectedId} onClick={() => props.onSelect(chat)} data-testid="chat-item" divider>
            <ListItemText
              primary={
                <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                  <Typography variant="subtitle2" noWrap sx={{ flex: 1 }}>
                    {chat.title}
                  </Typography>
                  {unreads > 0 && <Badge color="secondary" badgeContent={unreads} aria-label={t("unread", { count: unreads })} data-testid="chat-unreads" sx={{ mr: 1 }} />}
                </Box>
              }
              secondary={chat.lastMessage || " "}
              slotProps={{ secondary: { noWrap: true } }}
            />
            {owner && (
              <Box sx={{ display: "flex" }} onClick={(e) => e.stopPropagation()}>
                <Tooltip title={t("edit")}>
                  <IconButton size="small" aria-label={t("edit")} onClick={() => props.onEdit(chat)}>
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("delete")}>
                  <IconButton size="small" aria-label={t("delete")} onClick={() => props.onDelete(chat)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Box>
            )}
          </ListItemButton>
        );
      })}
    </List>
  );
}
