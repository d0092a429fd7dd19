import BlockIcon from "@mui/icons-material/Block";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import ForwardIcon from "@mui/icons-material/Forward";
import { Box, IconButton, Stack, Typography } from "@mui/material";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { formatTime } from "@atende/shared/domain/format/dates";
import { AckIcon } from "../../shared/components/ack-icon";
import { WhatsAppText, stripWhatsAppMarkup } from "../../shared/whatsapp-markup";
import { LocationCard } from "./location-card";
import { MediaContent } from "./media-content";
import { VcardCard } from "./vcard-card";

const MEDIA = new Set(["image", "audio", "video", "application", "sticker"]);

function Body({ message }: { message: MessageView }) {
  const { t } = useTranslation("messages");
  if (message.isDeleted)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ fontStyle: "italic" }} data-testid="message-deleted">
        <BlockIcon sx={{ fontSize: 14, verticalAlign: "middle", mr: 0.5 }} />
        {t("deleted")}
      </Typography>
    );
  if (message.mediaType === "locationMessage") return <LocationCard body={message.body} />;
  if (message.mediaType === "vcard" || message.mediaType === "contactMessage") return <VcardCard body={message.body} />;
  if (message.mediaType === "call_log") return <Typography variant="body2">{t("callLog")}</Typography>;
  if (MEDIA.has(message.mediaType) && message.mediaUrl)
    return (
      <>
        <MediaContent message={message} />
        {message.body && message.body !== message.mediaName && message.mediaType !== "audio" && (
          <Box sx={{ mt: 0.5 }}>
            <WhatsAppText text={message.body} />
          </Box>
        )}
      </>
    );
  return <WhatsAppText text={message.body} />;
}

/** One message of the conversation: quoted message, body by type, time, ack, reactions and the options button. */
export const MessageBubble = memo(function MessageBubble({ message, onMenu, isGroup }: { message: MessageView; onMenu: (el: HTMLElement, m: MessageView) => void; isGroup?: boolean }) {
  const { t } = useTranslation("messages");
  const mine = message.fromMe;
  const quoted = message.quotedMsg;
  return (
    <Box sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", px: 1.5, py: 0.25 }} data-testid="message" data-message-id={message.id} data-from-me={mine}>
      <Box
        sx={{
          position: "relative",
          maxWidth: "75%",
          minWidth: 90,
          bgcolor: mine ? "#dcf8c6" : "background.paper",
          color: mine ? "#111" : "text.primary",
          borderRadius: 2,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          boxShadow: 1,
          "&:hover .message-menu": { opacity: 1 },
        }}
      >
        {!message.isDeleted && (
          <IconButton className="message-menu" size="small" aria-label={t("menu.open")} onClick={(e) => onMenu(e.currentTarget, message)} sx={{ position: "absolute", top: 0, right: 0, opacity: { xs: 1, md: 0 }, p: 0.25 }}>
            <ExpandMoreIcon fontSize="small" />
          </IconButton>
        )}
        {isGroup && !mine && message.contact && (
          <Typography variant="caption" color="primary" fontWeight={600} display="block">
            {message.contact.name}
          </Typography>
        )}
        {message.isForwarded && (
          <Typography variant="caption" color="text.secondary" display="block" sx={{ fontStyle: "italic" }}>
            <ForwardIcon sx={{ fontSize: 12, verticalAlign: "middle" }} /> {t("forwarded")}
          </Typography>
        )}
        {quoted && (
          <Box data-testid="quoted-message" sx={{ borderLeft: 4, borderColor: quoted.fromMe ? "success.main" : "primary.main", bgcolor: "rgba(0,0,0,0.05)", borderRadius: 1, px: 1, py: 0.5, mb: 0.5, pr: 3 }}>
            <Typography variant="caption" fontWeight={600} display="block">
              {quoted.fromMe ? t("you") : (message.contact?.name ?? t("contact"))}
            </Typography>
            <Typography variant="body2" noWrap sx={{ maxWidth: 240 }}>
              {quoted.mediaType !== "chat" && !quoted.body ? t(`types.${quoted.mediaType}`, { defaultValue: quoted.mediaType }) : stripWhatsAppMarkup(quoted.body)}
            </Typography>
          </Box>
        )}
        <Box sx={{ pr: 2 }}>
          <Body message={message} />
        </Box>
        {message.error && (
          <Typography variant="caption" color="error" display="block">
            {message.error === "ERR_WAPP_MEDIA_TOO_LARGE" ? t("errors:ERR_WAPP_MEDIA_TOO_LARGE") : t("sendFailed")}
          </Typography>
        )}
        <Stack direction="row" spacing={0.5} justifyContent="flex-end" alignItems="center" sx={{ color: "text.secondary", mt: 0.25 }}>
          {message.isEdited && !message.isDeleted && <Typography variant="caption">{t("edited")}</Typography>}
          <Typography variant="caption">{formatTime(message.createdAt)}</Typography>
          {mine && <AckIcon ack={message.ack} />}
        </Stack>
        {message.reactions?.length > 0 && (
          <Box data-testid="message-reactions" sx={{ position: "absolute", bottom: -12, [mine ? "left" : "right"]: 8, bgcolor: "background.paper", borderRadius: 3, boxShadow: 1, px: 0.5, fontSize: 14 }}>
            {message.reactions.map((r) => r.emoji).join("")}
          </Box>
        )}
      </Box>
    </Box>
  );
});
