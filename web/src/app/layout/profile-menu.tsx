import AccountCircle from "@mui/icons-material/AccountCircle";
import { IconButton, Menu, MenuItem, Tooltip } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { OwnProfileDialog } from "../../features/users/components/own-profile-dialog";
import { MfaSection } from "../../features/auth/components/mfa-section";

// the push section loads with the dialog, not with the first screen (issue 32: the first screen's weight stays)
const PushSection = lazy(() => import("../../features/push/components/push-section").then((m) => ({ default: m.PushSection })));

/** Profile menu: own-user dialog (users feature, with the auth feature's two-factor section) and logout. */
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
      {dialogOpen && (
        <OwnProfileDialog onClose={() => setDialogOpen(false)}>
          <MfaSection />
          <Suspense fallback={null}>
            <PushSection />
          </Suspense>
        </OwnProfileDialog>
      )}
    </>
  );
}
