import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Paper, Tab, Tabs, Typography, useMediaQuery, useTheme } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import type { ChatResponse } from "@atende/shared/contracts/http/chats";
import { LIST_SCROLL_BOTTOM_PX } from "@atende/shared/constants/business";
import { useSessionUser } from "../../../lib/session/session-context";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { unreadsOf, useChat, useChatsList, useDeleteChat, useMarkChatRead } from "../api/chats";
import { ChatDialog } from "./chat-dialog";
import { ChatList } from "./chat-list";
import { ChatMessages } from "./chat-messages";

/**
 * /chats and /chats/{uuid} (spec 3): chat list on the left and messages on the right on wide screens;
 * tabs "Chats" / "Mensagens" on narrow ones. The open chat is marked read while it has unread messages.
 */
export function ChatsPage() {
  const { t } = useTranslation("chats");
  const { id: uuid } = useParams();
  const navigate = useNavigate();
  const me = useSessionUser();
  const wide = useMediaQuery(useTheme().breakpoints.up("md"));
  const [tab, setTab] = useState<"chats" | "messages">(uuid ? "messages" : "chats");
  const [editing, setEditing] = useState<ChatResponse | "new" | null>(null);
  const [deleting, setDeleting] = useState<ChatResponse | null>(null);
  const list = useChatsList();
  const chats = list.data?.pages.flatMap((p) => p.records) ?? [];
  const listed = chats.find((c) => c.uuid === uuid);
  const fetched = useChat(uuid && !listed && list.isSuccess ? uuid : undefined);
  const current = listed ?? (fetched.data?.uuid === uuid ? fetched.data : undefined);
  const remove = useDeleteChat();
  const markRead = useMarkChatRead();
  const unread = current ? unreadsOf(current, me.id) : 0;

  useEffect(() => {
    if (current && unread > 0) markRead.mutate({ chatId: current.id, userId: me.id });
    // markRead is a new object each render: the read is due only when the chat or its unread count changes
  }, [current?.id, unread, me.id]);

  const open = (chat: ChatResponse) => {
    navigate(`/chats/${chat.uuid}`);
    setTab("messages");
  };
  const onListScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LIST_SCROLL_BOTTOM_PX && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

  const listPane = (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box sx={{ p: 1, borderBottom: 1, borderColor: "divider" }}>
        <Button fullWidth variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")} data-testid="chat-new">
          {t("new")}
        </Button>
      </Box>
      <Box sx={{ flex: 1, overflowY: "auto" }} onScroll={onListScroll}>
        <ChatList chats={chats} selectedId={current?.id} onSelect={open} onEdit={setEditing} onDelete={setDeleting} />
      </Box>
    </Box>
  );
  const messagesPane = current ? (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Typography variant="h6" noWrap sx={{ px: 2, py: 1, borderBottom: 1, borderColor: "divider" }} data-testid="chat-title-bar">
        {current.title}
      </Typography>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ChatMessages key={current.id} chat={current} />
      </Box>
    </Box>
  ) : (
    <Typography color="text.secondary" sx={{ p: 3 }}>
      {t("noneSelected")}
    </Typography>
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, height: "calc(100vh - 64px)", display: "flex", flexDirection: "column", minHeight: 0 }} data-testid="chats-page">
      {/* the page's title for screen readers: the two panes say what they are */}
      <Typography variant="h5" component="h1" sx={{ position: "absolute", width: "1px", height: "1px", overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap" }}>
        {t("title")}
      </Typography>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: wide ? "row" : "column", overflow: "hidden" }}>
        {wide ? (
          <>
            <Box sx={{ width: 320, flexShrink: 0, borderRight: 1, borderColor: "divider", minHeight: 0 }}>{listPane}</Box>
            <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>{messagesPane}</Box>
          </>
        ) : (
          <>
            <Tabs value={tab} onChange={(_, v: "chats" | "messages") => setTab(v)} variant="fullWidth">
              <Tab value="chats" label={t("tabs.chats")} />
              <Tab value="messages" label={t("tabs.messages")} />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0 }}>{tab === "chats" ? listPane : messagesPane}</Box>
          </>
        )}
      </Paper>
      {editing && <ChatDialog chat={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={(saved) => editing === "new" && open(saved)} />}
      <ConfirmDeleteDialog
        target={deleting}
        title={t("deleteConfirm.title", { title: deleting?.title ?? "" })}
        deletedText={t("deleteConfirm.done")}
        remove={{
          isPending: remove.isPending,
          mutate: (id, opts) =>
            remove.mutate(id, {
              onSuccess: () => {
                opts.onSuccess();
                if (current?.id === id) navigate("/chats");
              },
              onSettled: opts.onSettled,
            }),
        }}
        onClose={() => setDeleting(null)}
      >
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </Box>
  );
}
