import VolumeOffIcon from "@mui/icons-material/VolumeOff";
import VolumeUpIcon from "@mui/icons-material/VolumeUp";
import { Box, IconButton, Popover, Slider, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VOLUME, usePreference } from "../../lib/preferences";

/** Notification volume 0..1, step 0.1, kept in localStorage `volume` (read it with usePreference(VOLUME)). */
export function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = usePreference(VOLUME);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("common:volume")}>
        <IconButton color="inherit" aria-label={t("common:volume")} onClick={(e) => setAnchor(e.currentTarget)}>
          {volume === 0 ? <VolumeOffIcon /> : <VolumeUpIcon />}
        </IconButton>
      </Tooltip>
      <Popover open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "center" }} transformOrigin={{ vertical: "top", horizontal: "center" }}>
        <Box sx={{ width: 180, px: 2.5, py: 1.5 }}>
          <Slider
            aria-label={t("common:volume")}
            value={volume}
            min={0}
            max={1}
            step={0.1}
            valueLabelDisplay="auto"
            onChange={(_e, value) => setVolume(Array.isArray(value) ? (value[0] ?? 0) : value)}
          />
        </Box>
      </Popover>
    </>
  );
}
