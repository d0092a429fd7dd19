import { Box, Drawer, Toolbar, useMediaQuery, useTheme } from "@mui/material";
import { Suspense, useState } from "react";
import { Outlet, useNavigate } from "react-router";
import { PageLoader } from "../../components/ui/page-loader";
import { useLogout } from "../../features/auth/api/logout";
import { DRAWER_OPEN, usePreference } from "../../lib/preferences";
import { useRealtimeStatus } from "../../lib/realtime";
import { forgetPushDevice, usePushApp } from "../../features/push/use-push-app";
import { DRAWER_WIDTH, SideMenu } from "./side-menu";
import { TopBar } from "./top-bar";

/**
 * Main layout (spec 1 "Main layout"): top bar, side menu of 240 px and the page.
 * Wide screens: the menu pushes the page and its open/closed state is saved (localStorage `drawerOpen`).
 * Narrow screens (< md): the menu is a temporary overlay, closed at start and after each choice.
 */
export function AppLayout() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up("md"), { noSsr: true });
  const [savedOpen, setSavedOpen] = usePreference(DRAWER_OPEN);
  const [mobileOpen, setMobileOpen] = useState(false);
  const logout = useLogout();
  const navigate = useNavigate();
  const open = wide ? savedOpen : mobileOpen;
  const realtime = useRealtimeStatus();

  const toggle = () => (wide ? setSavedOpen(!savedOpen) : setMobileOpen(!mobileOpen));
  // the installable app (issue 32): service worker after the first screen; logout forgets this device's push subscription
  usePushApp(navigate);
  const doLogout = () => void forgetPushDevice().then(() => logout.mutate(undefined, { onSettled: () => navigate("/login", { replace: true }) }));

  const menu = <SideMenu onNavigate={wide ? undefined : () => setMobileOpen(false)} onLogout={doLogout} />;

  return (
    <Box sx={{ display: "flex", minHeight: "100vh" }} data-testid="app-shell" data-realtime={realtime}>
      <TopBar drawerOpen={open} onToggleDrawer={toggle} onLogout={doLogout} />
      {wide ? (
        <Drawer
          variant="persistent"
          open={open}
          sx={{
            width: open ? DRAWER_WIDTH : 0,
            flexShrink: 0,
            transition: theme.transitions.create("width"),
            "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" },
          }}
        >
          <Toolbar />
          {menu}
        </Drawer>
      ) : (
        <Drawer variant="temporary" open={open} onClose={() => setMobileOpen(false)} ModalProps={{ keepMounted: true }} sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH } }}>
          <Toolbar />
          {menu}
        </Drawer>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <Toolbar />
        <Box sx={{ flex: 1, minHeight: 0 }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
