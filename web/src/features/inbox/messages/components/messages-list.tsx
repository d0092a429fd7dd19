import { Box, Chip, CircularProgress } from "@mui/material";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { MESSAGES_SCROLL_TOP_PX } from "@atende/shared/constants/business";
import { dayLabel, startsNewDay } from "../../shared/date-separators";
import { flattenMessages, useMessagesList } from "../api/messages-list";
import { MessageBubble } from "./message-bubble";
import { WhisperBubble } from "./whisper-bubble";
import { MessageMenu } from "./message-menu";

/**
 * The conversation: older pages load when scrolled within 50 px of the top, keeping what the user sees in place;
 * new messages scroll to the bottom when the user was already there (or sent them). Day separators between days.
 */
export function MessagesList({
  ticketId,
  isGroup,
  onReply,
  noEditDelete,
  focusId,
}: {
  ticketId: number;
  isGroup?: boolean;
  onReply: (m: MessageView) => void;
  noEditDelete?: boolean;
  /** a message to scroll to and highlight (a search result; docs/adr/0035): older pages load until it is there */
  focusId?: string | null;
}) {
  const query = useMessagesList(ticketId);
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const box = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const edges = useRef<{ first?: string; last?: string }>({});
  const nearBottom = useRef(true);
  const [menu, setMenu] = useState<{ el: HTMLElement; message: MessageView } | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !messages.length) return;
    const first = messages[0]?.id;
    const lastMessage = messages[messages.length - 1];
    const prev = edges.current;
    if (anchor.current && first !== prev.first) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (prev.last === undefined || (lastMessage?.id !== prev.last && (nearBottom.current || lastMessage?.fromMe))) {
      el.scrollTop = el.scrollHeight;
    }
    edges.current = { first, last: lastMessage?.id };
  }, [messages]);

  // media that finishes loading makes the content taller: stay at the bottom if the user was there
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current && !anchor.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  // a searched message: load older pages until it is in, then bring it to the middle of the view
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!focusId) {
      focused.current = null;
      return;
    }
    if (!query.data) return;
    if (!messages.some((m) => m.id === focusId)) {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
      return;
    }
    if (focused.current === focusId) return;
    focused.current = focusId;
    const el = [...(box.current?.querySelectorAll<HTMLElement>("[data-message-id]") ?? [])].find((e) => e.dataset.messageId === focusId);
    nearBottom.current = false;
    el?.scrollIntoView?.({ block: "center" });
  }, [focusId, messages, query]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 150;
    if (el.scrollTop < MESSAGES_SCROLL_TOP_PX && query.hasNextPage && !query.isFetchingNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void query.fetchNextPage();
    }
  };

  return (
    <Box ref={box} onScroll={onScroll} data-testid="messages-list" sx={{ flex: 1, minHeight: 0, overflowY: "auto", py: 1, bgcolor: (theme) => (theme.palette.mode === "dark" ? "grey.900" : "#efeae2") }}>
      {(query.isLoading || query.isFetchingNextPage) && (
        <Box sx={{ display: "flex", justifyContent: "center", p: 1 }}>
          <CircularProgress size={22} />
        </Box>
      )}
      <div ref={content}>
        {messages.map((message, i) => (
          <Fragment key={message.id}>
            {startsNewDay(messages[i - 1]?.createdAt, message.createdAt) && (
              <Box sx={{ display: "flex", justifyContent: "center", my: 1 }}>
                <Chip size="small" label={dayLabel(message.createdAt)} data-testid="day-separator" />
              </Box>
            )}
            <Box
              data-message-id={message.id}
              data-focused={message.id === focusId ? "true" : undefined}
              sx={{
                mb: message.reactions?.length ? 1.5 : 0,
                transition: "background-color 0.3s",
                ...(message.id === focusId ? { bgcolor: "rgba(255, 193, 7, 0.35)", borderRadius: 1 } : {}),
              }}
            >
              {message.internal ? <WhisperBubble message={message} /> : <MessageBubble message={message} isGroup={isGroup} onMenu={(el, m) => setMenu({ el, message: m })} />}
            </Box>
          </Fragment>
        ))}
      </div>
      {menu && <MessageMenu anchor={menu.el} message={menu.message} onClose={() => setMenu(null)} onReply={onReply} noEditDelete={noEditDelete} />}
    </Box>
  );
}
