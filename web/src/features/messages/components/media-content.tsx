import DownloadIcon from "@mui/icons-material/Download";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import { Box, Button, CircularProgress, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { useMediaBlob } from "../../inbox-shared/use-media-blob";

/** Image, audio, video or document of a message, fetched as an authenticated blob, with a download button. */
export function MediaContent({ message }: { message: MessageView }) {
  const { t } = useTranslation("messages");
  const { url, error } = useMediaBlob(message.mediaUrl);
  const name = message.mediaName || message.body || t("media.file");
  if (error) return <Typography variant="body2" color="error">{t("media.unavailable")}</Typography>;
  if (!url) return <CircularProgress size={20} aria-label={t("media.loading")} />;
  const download = (
    <Button size="small" startIcon={<DownloadIcon />} href={url} download={name} component="a">
      {t("media.download")}
    </Button>
  );
  switch (message.mediaType) {
    case "image":
    case "sticker":
      return (
        <Box>
          <a href={url} target="_blank" rel="noopener noreferrer">
            <Box component="img" src={url} alt={name} data-testid="message-image" sx={{ maxWidth: 260, maxHeight: 260, borderRadius: 1, display: "block" }} />
          </a>
        </Box>
      );
    case "audio":
      return <audio controls src={url} data-testid="message-audio" style={{ maxWidth: 260 }} />;
    case "video":
      return (
        <Box>
          <video controls src={url} data-testid="message-video" style={{ maxWidth: 260, maxHeight: 260 }} />
          {download}
        </Box>
      );
    default:
      return (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }} data-testid="message-document">
          <InsertDriveFileIcon />
          <Typography variant="body2" noWrap sx={{ maxWidth: 180 }}>
            {name}
          </Typography>
          {download}
        </Box>
      );
  }
}
