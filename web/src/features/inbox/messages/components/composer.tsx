import AttachFileIcon from "@mui/icons-material/AttachFile";
import CancelIcon from "@mui/icons-material/Cancel";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CloseIcon from "@mui/icons-material/Close";
import MicIcon from "@mui/icons-material/Mic";
import MoodIcon from "@mui/icons-material/Mood";
import SendIcon from "@mui/icons-material/Send";
import { Box, Chip, IconButton, List, ListItemButton, ListItemText, Paper, Popover, Stack, Switch, TextField, Tooltip, Typography } from "@mui/material";
import { useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { COMPOSER_ROWS } from "@atende/shared/constants/business";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { useSessionUser } from "../../../../lib/session/session-context";
import { usePreference } from "../../../../lib/preferences";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { useQuickMessages } from "../../../../lib/pickers";
import { ALL_REACTIONS } from "../../shared/reactions";
import { stripWhatsAppMarkup } from "../../shared/whatsapp-markup";
import { useSendMedia, useSendMessage } from "../api/message-actions";
import { SIGN_MESSAGE, compressImage, isAudioKept, isSendable, matchQuickMessages, quickMessageLabel, signedBody } from "../composer-rules";
import { useAudioRecorder } from "../use-audio-recorder";
import { ComposerCopilot } from "../../../../components/copilot/composer-copilot";

type Props = {
  ticketId: number;
  status: TicketStatus;
  replyTo: MessageView | null;
  onCancelReply: () => void;
  /** provider extras beside the attach button (a Cloud API ticket's template button) */
  extraActions?: ReactNode;
};

/** The message composer (spec 1 sections 4, 5, 9). Sending is blocked unless the ticket is open. */
export function Composer({ ticketId, status, replyTo, onCancelReply, extraActions }: Props) {
  const { t } = useTranslation("messages");
  const user = useSessionUser();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [sign, setSign] = usePreference(SIGN_MESSAGE);
  const fileInput = useRef<HTMLInputElement>(null);
  const sendText = useSendMessage();
  const sendMedia = useSendMedia();
  const recorder = useAudioRecorder();
  const quick = useQuickMessages(user.id);
  const suggestions = matchQuickMessages(quick.data ?? [], text);
  const busy = sendText.isPending || sendMedia.isPending;

  if (status !== "open")
    return (
      <Paper square sx={{ p: 2, textAlign: "center", borderTop: 1, borderColor: "divider" }} data-testid="composer-blocked">
        <Typography color="text.secondary">{t(status === "closed" ? "composer.closedBlocked" : "composer.pendingBlocked")}</Typography>
      </Paper>
    );

  const submitText = () => {
    if (!isSendable(text) || busy) return;
    const body = signedBody(text, user.name, sign);
    sendText.mutate({ ticketId, body, quotedMsg: replyTo }, { onSuccess: () => onCancelReply() });
    setText("");
  };

  const submitFiles = async () => {
    if (!files.length || busy) return;
    const ready = await Promise.all(files.map((f) => compressImage(f)));
    sendMedia.mutate({ ticketId, files: ready, body: isSendable(text) ? signedBody(text, user.name, false) : undefined }, { onSuccess: () => setFiles([]) });
    setText("");
  };

  const startRecording = () => recorder.start().catch((err: unknown) => toastError(err instanceof Error ? t("composer.micError") : err));
  const sendRecording = async () => {
    const blob = await recorder.stop();
    if (!blob || !isAudioKept(blob)) {
      toast.warning(t("composer.audioTooShort"));
      return;
    }
    const ext = blob.type.includes("ogg") ? "ogg" : blob.type.includes("mp4") ? "m4a" : "webm";
    sendMedia.mutate({ ticketId, files: [new File([blob], `audio-${Date.now()}.${ext}`, { type: blob.type })] });
  };

  return (
    <Paper square sx={{ borderTop: 1, borderColor: "divider", position: "relative" }} data-testid="composer">
      {replyTo && (
        <Stack direction="row" alignItems="center" sx={{ px: 2, pt: 1 }} data-testid="reply-preview">
          <Box sx={{ flex: 1, minWidth: 0, borderLeft: 4, borderColor: "primary.main", pl: 1, bgcolor: "action.hover", borderRadius: 1 }}>
            <Typography variant="caption" fontWeight={600}>
              {replyTo.fromMe ? t("you") : (replyTo.contact?.name ?? t("contact"))}
            </Typography>
            <Typography variant="body2" noWrap>
              {stripWhatsAppMarkup(replyTo.body)}
            </Typography>
          </Box>
          <IconButton aria-label={t("composer.cancelReply")} onClick={onCancelReply}>
            <CloseIcon />
          </IconButton>
        </Stack>
      )}
      {suggestions.length > 0 && (
        <Paper elevation={4} sx={{ position: "absolute", bottom: "100%", left: 8, right: 8, maxHeight: 240, overflowY: "auto", zIndex: 2 }}>
          <List dense data-testid="quick-suggestions">
            {suggestions.map((q) => (
              <ListItemButton key={q.id} onClick={() => setText(q.message)}>
                <ListItemText primary={quickMessageLabel(q)} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {files.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ px: 2, pt: 1 }} data-testid="attachments">
          {files.map((f, i) => (
            <Chip key={`${f.name}-${i}`} label={f.name} onDelete={() => setFiles((prev) => prev.filter((_x, j) => j !== i))} />
          ))}
        </Stack>
      )}
      <ComposerCopilot ticketId={ticketId} text={text} onText={setText} />
      <Stack direction="row" alignItems="flex-end" spacing={0.5} sx={{ p: 1 }}>
        <Tooltip title={t("composer.emoji")}>
          <IconButton onClick={(e) => setEmojiAnchor(e.currentTarget)} aria-label={t("composer.emoji")}>
            <MoodIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={t("composer.attach")}>
          <IconButton onClick={() => fileInput.current?.click()} aria-label={t("composer.attach")} disabled={recorder.recording}>
            <AttachFileIcon />
          </IconButton>
        </Tooltip>
        {extraActions}
        <input ref={fileInput} type="file" multiple hidden data-testid="file-input" onChange={(e) => {
          setFiles(Array.from(e.target.files ?? []));
          e.target.value = "";
        }} />
        <TextField
          fullWidth
          multiline
          sx={{ minWidth: 120 }}
          maxRows={COMPOSER_ROWS}
          size="small"
          placeholder={recorder.recording ? t("composer.recording") : t("composer.placeholder")}
          value={text}
          disabled={recorder.recording}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              if (files.length) void submitFiles();
              else submitText();
            }
          }}
          inputProps={{ "aria-label": t("composer.placeholder"), "data-testid": "composer-input" }}
        />
        <Tooltip title={t("composer.sign")}>
          <Switch size="small" checked={sign} onChange={(e) => setSign(e.target.checked)} slotProps={{ input: { "aria-label": t("composer.sign") } }} sx={{ alignSelf: "center", flexShrink: 0 }} />
        </Tooltip>
        {recorder.recording ? (
          <>
            <IconButton color="error" aria-label={t("composer.cancelAudio")} onClick={recorder.cancel}>
              <CancelIcon />
            </IconButton>
            <IconButton color="success" aria-label={t("composer.sendAudio")} onClick={() => void sendRecording()}>
              <CheckCircleIcon />
            </IconButton>
          </>
        ) : text.trim() || files.length ? (
          <IconButton color="primary" aria-label={t("composer.send")} data-testid="composer-send" disabled={busy} onClick={() => (files.length ? void submitFiles() : submitText())}>
            <SendIcon />
          </IconButton>
        ) : (
          <IconButton aria-label={t("composer.record")} onClick={() => void startRecording()} disabled={busy}>
            <MicIcon />
          </IconButton>
        )}
      </Stack>
      <Popover open={!!emojiAnchor} anchorEl={emojiAnchor} onClose={() => setEmojiAnchor(null)} anchorOrigin={{ vertical: "top", horizontal: "left" }} transformOrigin={{ vertical: "bottom", horizontal: "left" }}>
        <Box sx={{ display: "grid", gridTemplateColumns: "repeat(10, 34px)", p: 0.5, maxHeight: 220, overflowY: "auto" }}>
          {ALL_REACTIONS.map((emoji) => (
            <IconButton key={emoji} sx={{ fontSize: 20, width: 34, height: 34 }} onClick={() => setText((v) => v + emoji)} aria-label={emoji}>
              {emoji}
            </IconButton>
          ))}
        </Box>
      </Popover>
    </Paper>
  );
}
