import NotificationsIcon from "@mui/icons-material/Notifications";
import { IconButton, Popover, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * The notification bell of the top bar. Placeholder: the tickets feature replaces this file's body
 * with the real popover (pending/new tickets, sound at the saved volume).
 */
export function NotificationsButton() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("common:notifications")}>
        <IconButton color="inherit" aria-label={t("common:notifications")} onClick={(e) => setAnchor(e.currentTarget)}>
          <NotificationsIcon />
        </IconButton>
      </Tooltip>
      <Popover open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
        <Typography sx={{ p: 2 }}>{t("common:noNotifications")}</Typography>
      </Popover>
    </>
  );
}
