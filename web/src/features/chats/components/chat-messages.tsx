import { Box, CircularProgress, Paper, Typography } from "@mui/material";
import { useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { ChatResponse } from "@atende/shared/contracts/http/chats";
import { CHAT_LOAD_MORE_TOP_PX } from "@atende/shared/domain/chats/chat";
import { formatShortDateTime } from "@atende/shared/domain/format/dates";
import { useSessionUser } from "../../../lib/session/session-context";
import { flattenMessages, useChatMessages, useSendChatMessage } from "../api/chats";
import { ChatComposer } from "./chat-composer";

/**
 * The open chat: newest message at the bottom; scrolling within 600 px of the top loads the next older page
 * (the view keeps its place). New messages scroll into view when the reader is at the bottom or wrote them.
 */
export function ChatMessages({ chat }: { chat: ChatResponse }) {
  const { t } = useTranslation("chats");
  const me = useSessionUser();
  const query = useChatMessages(chat.id);
  const send = useSendChatMessage(chat.id);
  const messages = flattenMessages(query.data);
  const box = useRef<HTMLDivElement>(null);
  /** what the view looked like before the last render: to keep the place when older pages arrive on top */
  const before = useRef({ height: 0, top: 0, first: "", last: "", atBottom: true });

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = messages[0]?.id ?? "";
    const last = messages[messages.length - 1]?.id ?? "";
    const prev = before.current;
    if (prev.first && first !== prev.first && last === prev.last) el.scrollTop = el.scrollHeight - prev.height + prev.top;
    else if (last !== prev.last && (prev.atBottom || messages[messages.length - 1]?.senderId === me.id || !prev.last)) el.scrollTop = el.scrollHeight;
    before.current = { height: el.scrollHeight, top: el.scrollTop, first, last, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 40 };
  });

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    before.current = { ...before.current, height: el.scrollHeight, top: el.scrollTop, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 40 };
    if (el.scrollTop < CHAT_LOAD_MORE_TOP_PX && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <Box ref={box} onScroll={onScroll} sx={{ flex: 1, overflowY: "auto", p: 2, display: "flex", flexDirection: "column", gap: 1 }} data-testid="chat-messages">
        {query.isFetchingNextPage && (
          <Box sx={{ display: "flex", justifyContent: "center" }} aria-label={t("loadingOlder")}>
            <CircularProgress size={20} />
          </Box>
        )}
        {query.isLoading && <CircularProgress size={24} sx={{ alignSelf: "center" }} />}
        {!query.isLoading && messages.length === 0 && <Typography color="text.secondary">{t("noMessages")}</Typography>}
        {messages.map((m) => {
          const mine = m.senderId === me.id;
          return (
            <Paper
              key={m.id}
              data-testid="chat-message"
              variant="outlined"
              sx={{ p: 1, maxWidth: "75%", alignSelf: mine ? "flex-end" : "flex-start", bgcolor: mine ? "action.selected" : "background.paper" }}
            >
              {!mine && (
                <Typography variant="caption" color="primary" sx={{ display: "block", fontWeight: 600 }}>
                  {m.sender.name}
                </Typography>
              )}
              <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                {m.message}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: "block", textAlign: "right" }}>
                {formatShortDateTime(m.createdAt)}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      <ChatComposer onSend={(text) => send.mutate(text)} />
    </Box>
  );
}
