import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import MenuIcon from "@mui/icons-material/Menu";
import RefreshIcon from "@mui/icons-material/Refresh";
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from "@mui/material";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "@atende/shared/domain/format/dates";
import { AfterFirstScreen } from "../../components/ui/after-first-screen";
import { THEME_MODE, usePreference } from "../../lib/preferences";
import { useSessionUser } from "../../lib/session/session-context";
import { lazyPage } from "../../lib/lazy-page";

// after the first screen, from a chunk of their own (issue 15, ADR 0047)
const loadExtras = () => import("./top-bar-extras");
const TopBarStatus = lazyPage(() => loadExtras().then((m) => m.TopBarStatus));
const TopBarVolume = lazyPage(() => loadExtras().then((m) => m.TopBarVolume));
const TopBarButtons = lazyPage(() => loadExtras().then((m) => m.TopBarButtons));

/** Top bar: menu toggle, greeting (admins also see the company's due date), theme, volume, reload, and after the first screen the status, bell, language and profile. */
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
        <AfterFirstScreen>
          <Suspense fallback={null}>
            <TopBarStatus />
          </Suspense>
        </AfterFirstScreen>
        <Tooltip title={t(mode === "dark" ? "common:theme.toLight" : "common:theme.toDark")}>
          <IconButton color="inherit" aria-label={t(mode === "dark" ? "common:theme.toLight" : "common:theme.toDark")} data-testid="theme-toggle" onClick={() => setMode(mode === "dark" ? "light" : "dark")}>
            {mode === "dark" ? <LightModeIcon /> : <DarkModeIcon />}
          </IconButton>
        </Tooltip>
        <AfterFirstScreen>
          <Suspense fallback={null}>
            <TopBarVolume />
          </Suspense>
        </AfterFirstScreen>
        <Tooltip title={t("common:reload")}>
          <IconButton color="inherit" aria-label={t("common:reload")} onClick={() => location.reload()} sx={{ display: { xs: "none", sm: "inline-flex" } }}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
        <AfterFirstScreen>
          <Suspense fallback={null}>
            <TopBarButtons onLogout={onLogout} />
          </Suspense>
        </AfterFirstScreen>
      </Toolbar>
    </AppBar>
  );
}
