import AccountCircle from "@mui/icons-material/AccountCircle";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Menu, MenuItem, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ComingSoon } from "../../components/ui/coming-soon";

/** Profile menu: own-user dialog (placeholder until the users feature provides its dialog) and logout. */
export function ProfileMenu({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <>
      <Tooltip title={t("common:profile")}>
        <IconButton color="inherit" aria-label={t("common:profile")} data-testid="profile-button" onClick={(e) => setAnchor(e.currentTarget)}>
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setDialogOpen(true);
          }}
        >
          {t("common:profile")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onLogout();
          }}
        >
          {t("menu:logout")}
        </MenuItem>
      </Menu>
      <Dialog open={dialogOpen} onClose={() => setDialogOpen(false)} fullWidth maxWidth="sm">
        <DialogTitle>{t("common:profileDialogTitle")}</DialogTitle>
        <DialogContent>
          <ComingSoon titleKey="common:profileDialogTitle" />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialogOpen(false)}>{t("common:close")}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
