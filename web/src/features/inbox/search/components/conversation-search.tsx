import CloseIcon from "@mui/icons-material/Close";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import KeyboardArrowUpIcon from "@mui/icons-material/KeyboardArrowUp";
import SearchIcon from "@mui/icons-material/Search";
import { IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import { useDebounced } from "../../../../hooks/use-debounced";
import { useTicketSearch } from "../api/search";

/**
 * The search box inside a conversation: the ticket's matching messages (oldest first), the newest shown first;
 * previous/next move through them, each scrolled to and highlighted by the conversation (`onFocus`).
 */
export function ConversationSearch({ ticketId, onFocus }: { ticketId: number; onFocus: (messageId: string | null) => void }) {
  const { t } = useTranslation("search");
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), DEBOUNCE_SEARCH_MS);
  const query = useTicketSearch(ticketId, open ? q : "");
  const matches = query.data?.matches ?? [];
  const [at, setAt] = useState(-1);

  // a new answer starts at the newest match
  useEffect(() => setAt(matches.length ? matches.length - 1 : -1), [query.data]);
  useEffect(() => onFocus(at >= 0 ? (matches[at]?.id ?? null) : null), [at, query.data]);
  useEffect(() => {
    setOpen(false);
    setText("");
  }, [ticketId]);

  const close = () => {
    setOpen(false);
    setText("");
    onFocus(null);
  };

  if (!open)
    return (
      <Stack direction="row" justifyContent="flex-end" sx={{ px: 1, py: 0.25, borderBottom: 1, borderColor: "divider" }}>
        <Tooltip title={t("conversation.open")}>
          <IconButton size="small" onClick={() => setOpen(true)} aria-label={t("conversation.open")} data-testid="conversation-search-open">
            <SearchIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
    );

  return (
    <Stack direction="row" alignItems="center" spacing={0.5} sx={{ px: 1, py: 0.5, borderBottom: 1, borderColor: "divider" }} data-testid="conversation-search">
      <TextField
        size="small"
        autoFocus
        fullWidth
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t("conversation.placeholder")}
        onKeyDown={(e) => {
          if (e.key === "Enter" && matches.length) setAt((v) => (e.shiftKey ? Math.min(matches.length - 1, v + 1) : Math.max(0, v - 1)));
          if (e.key === "Escape") close();
        }}
        slotProps={{
          htmlInput: { "aria-label": t("conversation.placeholder") },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap", minWidth: 56, textAlign: "center" }} data-testid="conversation-search-count">
        {q ? (matches.length ? t("conversation.count", { at: matches.length - at, total: matches.length }) : t("conversation.none")) : ""}
      </Typography>
      <Tooltip title={t("conversation.previous")}>
        <span>
          <IconButton size="small" disabled={at <= 0} onClick={() => setAt((v) => v - 1)} aria-label={t("conversation.previous")}>
            <KeyboardArrowUpIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t("conversation.next")}>
        <span>
          <IconButton size="small" disabled={at < 0 || at >= matches.length - 1} onClick={() => setAt((v) => v + 1)} aria-label={t("conversation.next")}>
            <KeyboardArrowDownIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t("conversation.close")}>
        <IconButton size="small" onClick={close} aria-label={t("conversation.close")}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
