import RecordVoiceOverIcon from "@mui/icons-material/RecordVoiceOver";
import { Box, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { formatTime } from "@atende/shared/domain/format/dates";
import { WhatsAppText } from "../../shared/whatsapp-markup";

/**
 * A whisper in the conversation (docs/adr/0102): set apart from the customer's and the attendant's messages —
 * centred, dashed amber frame, "team only" label — and without the message menu (no reply, edit, delete, forward:
 * those would reach the channel).
 */
export function WhisperBubble({ message }: { message: MessageView }) {
  const { t } = useTranslation("supervisor");
  return (
    <Box sx={{ display: "flex", justifyContent: "center", px: 1.5, py: 0.5 }} data-testid="whisper" data-message-id={message.id}>
      <Box sx={{ maxWidth: "80%", minWidth: 160, bgcolor: "#fff8e1", color: "#3e2c00", border: "1px dashed", borderColor: "warning.main", borderRadius: 2, px: 1.25, py: 0.75 }}>
        <Stack direction="row" spacing={0.5} alignItems="center" sx={{ color: "warning.dark", mb: 0.25 }}>
          <RecordVoiceOverIcon sx={{ fontSize: 14 }} />
          <Typography variant="caption" fontWeight={600}>
            {t("whisper.badge")}
          </Typography>
        </Stack>
        <WhatsAppText text={message.body} />
        <Typography variant="caption" color="text.secondary" display="block" textAlign="right">
          {formatTime(message.createdAt)}
        </Typography>
      </Box>
    </Box>
  );
}
