import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import SummarizeIcon from "@mui/icons-material/Summarize";
import TipsAndUpdatesIcon from "@mui/icons-material/TipsAndUpdates";
import { Alert, Box, Button, Chip, CircularProgress, IconButton, Menu, MenuItem, Stack, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { REWRITE_STYLES, type RewriteStyle } from "@atende/shared/contracts/http/copilot";
import { toastError } from "../../lib/toast-error";
import { useCopilotFeatures, useCopilotRewrite, useCopilotSuggestions, useCopilotSummary } from "./copilot-api";

type Props = { ticketId: number; text: string; onText: (text: string) => void };

/**
 * The copilot's row in the composer (issue 33): the summary of the conversation, suggested replies as chips (a click
 * puts the text in the box; nothing is sent without the attendant) and the rewrite of the box's text. Shows only
 * the features the company turned on.
 */
export function ComposerCopilot({ ticketId, text, onText }: Props) {
  const { t } = useTranslation("copilot");
  const features = useCopilotFeatures();
  const summary = useCopilotSummary();
  const suggestions = useCopilotSuggestions();
  const rewrite = useCopilotRewrite();
  const [shown, setShown] = useState<{ ticketId: number; summary?: string; suggestions?: string[] }>({ ticketId });
  const [styleAnchor, setStyleAnchor] = useState<HTMLElement | null>(null);
  const f = features.data;
  if (!f || (!f.summary && !f.suggestions && !f.rewrite)) return null;
  // another ticket opened: what was shown belonged to the previous one
  const current = shown.ticketId === ticketId ? shown : { ticketId };

  const askSummary = () => summary.mutate(ticketId, { onSuccess: (r) => setShown({ ...current, summary: r.summary }), onError: toastError });
  const askSuggestions = () => suggestions.mutate(ticketId, { onSuccess: (r) => setShown({ ...current, suggestions: r.suggestions }), onError: toastError });
  const askRewrite = (style: RewriteStyle) => {
    setStyleAnchor(null);
    rewrite.mutate({ text, style }, { onSuccess: (r) => onText(r.text), onError: toastError });
  };

  return (
    <Box sx={{ px: 1, pt: 0.5 }} data-testid="composer-copilot">
      {current.summary && (
        <Alert severity="info" icon={<SummarizeIcon fontSize="small" />} onClose={() => setShown({ ...current, summary: undefined })} sx={{ mb: 0.5, whiteSpace: "pre-wrap" }} data-testid="copilot-summary">
          {current.summary}
        </Alert>
      )}
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" alignItems="center">
        {f.summary && (
          <Button size="small" startIcon={summary.isPending ? <CircularProgress size={14} /> : <SummarizeIcon />} disabled={summary.isPending} onClick={askSummary}>
            {t("summary")}
          </Button>
        )}
        {f.suggestions && (
          <Button size="small" startIcon={suggestions.isPending ? <CircularProgress size={14} /> : <TipsAndUpdatesIcon />} disabled={suggestions.isPending} onClick={askSuggestions}>
            {t("suggest")}
          </Button>
        )}
        {f.rewrite && (
          <>
            <Tooltip title={t("rewrite")}>
              <span>
                <IconButton size="small" aria-label={t("rewrite")} disabled={!text.trim() || rewrite.isPending} onClick={(e) => setStyleAnchor(e.currentTarget)}>
                  {rewrite.isPending ? <CircularProgress size={16} /> : <AutoAwesomeIcon fontSize="small" />}
                </IconButton>
              </span>
            </Tooltip>
            <Menu open={!!styleAnchor} anchorEl={styleAnchor} onClose={() => setStyleAnchor(null)}>
              {REWRITE_STYLES.map((s) => (
                <MenuItem key={s} onClick={() => askRewrite(s)}>
                  {t(`styles.${s}`)}
                </MenuItem>
              ))}
            </Menu>
          </>
        )}
        {current.suggestions?.map((s, i) => (
          <Chip key={`${i}-${s}`} label={s} size="small" variant="outlined" color="primary" onClick={() => onText(s)} sx={{ maxWidth: 360 }} data-testid="copilot-suggestion" />
        ))}
        {current.suggestions?.length === 0 && <Chip size="small" label={t("noSuggestions")} />}
      </Stack>
    </Box>
  );
}
