import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import MenuIcon from "@mui/icons-material/Menu";
import RefreshIcon from "@mui/icons-material/Refresh";
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatDate } from "@atende/shared/domain/format/dates";
import { LanguageSelector } from "../../components/ui/language-selector";
import { THEME_MODE, usePreference } from "../../lib/preferences";
import { useSessionUser } from "../../lib/session/session-context";
import { AnnouncementsButton } from "./announcements-button";
import { InternalChatsButton } from "./internal-chats-button";
import { NotificationsButton } from "./notifications-button";
import { ProfileMenu } from "./profile-menu";
import { VolumeControl } from "./volume-control";
import { AgentStatusSwitch } from "../../features/presence/components/agent-status-switch";

/** Top bar: menu toggle, greeting (admins also see the company's due date), theme, volume, reload, bell, language, profile. */
export function TopBar({ drawerOpen, onToggleDrawer, onLogout }: { drawerOpen: boolean; onToggleDrawer: () => void; onLogout: () => void }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const [mode, setMode] = usePreference(THEME_MODE);
  const greeting =
    user.profile === "admin"
      ? t("common:greetingAdmin", { name: user.name, company: user.company.name, date: formatDate(user.company.dueDate) })
      : t("common:greeting", { name: user.name });
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: { xs: 0, sm: 0.5 }, px: { xs: 1, sm: 2 } }}>
        <Tooltip title={t(drawerOpen ? "menu:closeMenu" : "menu:openMenu")}>
          <IconButton color="inherit" edge="start" aria-label={t(drawerOpen ? "menu:closeMenu" : "menu:openMenu")} data-testid="drawer-toggle" onClick={onToggleDrawer}>
            <MenuIcon />
          </IconButton>
        </Tooltip>
        <Typography variant="subtitle1" noWrap sx={{ flex: 1, minWidth: 0, display: { xs: "none", sm: "block" } }} data-testid="greeting">
          {greeting}
        </Typography>
        <Box sx={{ flex: 1, display: { xs: "block", sm: "none" } }} />
        <AgentStatusSwitch />
        <Tooltip title={t(mode === "dark" ? "common:theme.toLight" : "common:theme.toDark")}>
          <IconButton color="inherit" aria-label={t(mode === "dark" ? "common:theme.toLight" : "common:theme.toDark")} data-testid="theme-toggle" onClick={() => setMode(mode === "dark" ? "light" : "dark")}>
            {mode === "dark" ? <LightModeIcon /> : <DarkModeIcon />}
          </IconButton>
        </Tooltip>
        <VolumeControl />
        <Tooltip title={t("common:reload")}>
          <IconButton color="inherit" aria-label={t("common:reload")} onClick={() => location.reload()} sx={{ display: { xs: "none", sm: "inline-flex" } }}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <NotificationsButton />
        <AnnouncementsButton />
        <InternalChatsButton />
        <LanguageSelector />
        <ProfileMenu onLogout={onLogout} />
      </Toolbar>
    </AppBar>
  );
}
