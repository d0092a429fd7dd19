import CloseIcon from "@mui/icons-material/Close";
import DownloadIcon from "@mui/icons-material/Download";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import { Box, Button, ButtonBase, CircularProgress, Dialog, DialogActions, DialogContent, IconButton, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { AudioTranscript } from "./audio-transcript";
import { useMediaBlob } from "../../../../hooks/use-media-blob";

/** The download link: a `download` attribute on an object URL, so the file is saved, never opened on our origin. */
function DownloadButton({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation("messages");
  return (
    <Button size="small" startIcon={<DownloadIcon />} href={url} download={name} component="a">
      {t("media.download")}
    </Button>
  );
}

/** An image opened large inside the app (never in a new tab: an object URL there would run with our origin). */
function ImageViewer({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const { t } = useTranslation("messages");
  return (
    <Dialog open onClose={onClose} maxWidth="lg" aria-label={name}>
      <DialogContent sx={{ p: 1, position: "relative" }}>
        <IconButton aria-label={t("common:close")} onClick={onClose} sx={{ position: "absolute", top: 8, right: 8, bgcolor: "background.paper" }}>
          <CloseIcon />
        </IconButton>
        <Box component="img" src={url} alt={name} data-testid="media-viewer-image" sx={{ maxWidth: "100%", maxHeight: "80vh", display: "block" }} />
      </DialogContent>
      <DialogActions>
        <DownloadButton url={url} name={name} />
      </DialogActions>
    </Dialog>
  );
}

/**
 * Image, audio, video or document of a message, fetched as an authenticated blob, with a download button.
 * What is shown inline is decided by the bytes (useMediaBlob), not by the message's type: an "image" that is really
 * an SVG or anything else is offered as a file to download.
 */
export function MediaContent({ message }: { message: MessageView }) {
  return (
    <>
      <MediaBody message={message} />
      {message.mediaType === "audio" && <AudioTranscript transcript={message.transcript} cut={message.transcriptCut} />}
    </>
  );
}

function ExpiredMedia() {
  const { t } = useTranslation("messages");
  return (
    <Typography variant="body2" color="text.secondary" fontStyle="italic" data-testid="media-expired">
      {t("media.expired")}
    </Typography>
  );
}

function MediaBody({ message }: { message: MessageView }) {
  // media retention deleted the file (LGPD): the message keeps its text and says so
  if (message.mediaExpiredAt) return <ExpiredMedia />;
  return <StoredMedia message={message} />;
}

function StoredMedia({ message }: { message: MessageView }) {
  const { t } = useTranslation("messages");
  const { url, error, kind, inline } = useMediaBlob(message.mediaUrl);
  const [viewing, setViewing] = useState(false);
  const name = message.mediaName || message.body || t("media.file");
  if (error) return <Typography variant="body2" color="error">{t("media.unavailable")}</Typography>;
  if (!url) return <CircularProgress size={20} aria-label={t("media.loading")} />;
  const sniffedKind = inline && (message.mediaType === "image" || message.mediaType === "sticker" || message.mediaType === "audio" || message.mediaType === "video") ? kind : null;
  // a WebM/MP4 container holds a voice recording as well as a film: an audio message plays as audio
  const shown = sniffedKind === "video" && message.mediaType === "audio" ? "audio" : sniffedKind;
  switch (shown) {
    case "image":
      return (
        <Box>
          <ButtonBase onClick={() => setViewing(true)} aria-label={name} sx={{ borderRadius: 1 }}>
            <Box component="img" src={url} alt={name} data-testid="message-image" sx={{ maxWidth: 260, maxHeight: 260, borderRadius: 1, display: "block" }} />
          </ButtonBase>
          {viewing && <ImageViewer url={url} name={name} onClose={() => setViewing(false)} />}
        </Box>
      );
    case "audio":
      return <audio controls src={url} data-testid="message-audio" style={{ maxWidth: 260 }} />;
    case "video":
      return (
        <Box>
          <video controls src={url} data-testid="message-video" style={{ maxWidth: 260, maxHeight: 260 }} />
          <DownloadButton url={url} name={name} />
        </Box>
      );
    default:
      return (
        <Box sx={{ display: "flex", alignItems: "center", gap: 1 }} data-testid="message-document">
          <InsertDriveFileIcon />
          <Typography variant="body2" noWrap sx={{ maxWidth: 180 }}>
            {name}
          </Typography>
          <DownloadButton url={url} name={name} />
        </Box>
      );
  }
}
