import AddIcon from "@mui/icons-material/Add";
import { Box, IconButton, Popover, Stack } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ALL_REACTIONS, QUICK_REACTIONS } from "../../shared/reactions";

/** 6 quick emojis and a '+' opening the full list (spec 1 section 9). */
export function ReactionPicker({ anchor, onPick, onClose }: { anchor: HTMLElement | null; onPick: (emoji: string) => void; onClose: () => void }) {
  const { t } = useTranslation("messages");
  const [all, setAll] = useState(false);
  return (
    <Popover open={!!anchor} anchorEl={anchor} onClose={onClose} anchorOrigin={{ vertical: "bottom", horizontal: "left" }}>
      <Stack direction="row" sx={{ p: 0.5 }} data-testid="reaction-picker">
        {QUICK_REACTIONS.map((emoji) => (
          <IconButton key={emoji} onClick={() => onPick(emoji)} aria-label={emoji} sx={{ fontSize: 22, width: 40, height: 40 }}>
            {emoji}
          </IconButton>
        ))}
        <IconButton onClick={() => setAll((v) => !v)} aria-label={t("reactions.more")}>
          <AddIcon />
        </IconButton>
      </Stack>
      {all && (
        <Box sx={{ display: "grid", gridTemplateColumns: "repeat(10, 36px)", p: 0.5, maxHeight: 220, overflowY: "auto" }} data-testid="reaction-list">
          {ALL_REACTIONS.map((emoji) => (
            <IconButton key={emoji} onClick={() => onPick(emoji)} aria-label={emoji} sx={{ fontSize: 20, width: 36, height: 36 }}>
              {emoji}
            </IconButton>
          ))}
        </Box>
      )}
    </Popover>
  );
}
