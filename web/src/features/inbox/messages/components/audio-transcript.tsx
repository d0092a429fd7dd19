import GraphicEqIcon from "@mui/icons-material/GraphicEq";
import { Box, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";

/** Read by screen readers only (MUI's visuallyHidden, without depending on @mui/utils). */
const visuallyHidden = { position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap" } as const;

/** The transcript of a customer's audio (made by the AI prompt before it answered, or by the copilot: issue 33), and whether the audio was cut to the provider's limit, shown under the player. */
export function AudioTranscript({ transcript, cut }: { transcript: string | null | undefined; cut?: boolean }) {
  const { t } = useTranslation(["messages", "copilot"]);
  if (!transcript) return null;
  return (
    <Box data-testid="audio-transcript" sx={{ display: "flex", gap: 0.5, alignItems: "flex-start", mt: 0.5, maxWidth: 260 }}>
      <GraphicEqIcon fontSize="inherit" sx={{ mt: "3px", color: "text.secondary" }} aria-hidden />
      <Typography variant="caption" color="text.secondary" sx={{ fontStyle: "italic", whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        <Box component="span" sx={visuallyHidden}>
          {t("transcript")}:{" "}
        </Box>
        {transcript}
        {cut && (
          <Box component="span" data-testid="audio-transcript-cut" sx={{ display: "block" }}>
            {t("copilot:transcriptCut")}
          </Box>
        )}
      </Typography>
    </Box>
  );
}
