import SendIcon from "@mui/icons-material/Send";
import { Box, IconButton, TextField, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isSendableChatMessage } from "@atende/shared/domain/chats/chat";

/** Enter sends (Shift+Enter breaks the line); empty or whitespace-only text is ignored (spec 3 section 5). */
export function ChatComposer({ onSend, disabled }: { onSend: (text: string) => void; disabled?: boolean }) {
  const { t } = useTranslation("chats");
  const [text, setText] = useState("");
  const send = () => {
    if (!isSendableChatMessage(text)) return;
    onSend(text.trim());
    setText("");
  };
  return (
    <Box sx={{ display: "flex", gap: 1, p: 1, borderTop: 1, borderColor: "divider", alignItems: "flex-end" }}>
      <TextField
        fullWidth
        multiline
        maxRows={5}
        size="small"
        placeholder={t("typeMessage")}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
        slotProps={{ htmlInput: { "aria-label": t("typeMessage"), "data-testid": "chat-input", maxLength: 4000 } }}
      />
      <Tooltip title={t("send")}>
        <span>
          <IconButton color="primary" aria-label={t("send")} onClick={send} disabled={disabled} data-testid="chat-send">
            <SendIcon />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}
