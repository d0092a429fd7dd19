import LogoutIcon from "@mui/icons-material/Logout";
import { Badge, Box, Divider, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Typography } from "@mui/material";
import { Fragment, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { type MenuItem, visibleMenuItems } from "@atende/shared/domain/menu/menu";
import { useSession, useSessionUser } from "../../lib/session/session-context";
import { useVersion } from "./api/version";
import { FALLBACK_MENU_ICON, MENU_ICONS } from "./menu-icons";
import { useConnectionsAlert, useUnreadInternalChats } from "./menu-indicators";
import { BrandLogo } from "../../components/ui/branding";

export const DRAWER_WIDTH = 240;

/** Menu entries this user may see: profile, super flag, plan flags and the company's campaignsEnabled setting. */
export const useVisibleMenu = (): MenuItem[] => {
  const session = useSession();
  const user = useSessionUser();
  const campaignsEnabled = user.company.settings.find((s) => s.key === "campaignsEnabled")?.value === "true";
  return visibleMenuItems({ profile: user.profile, super: user.super, campaignsEnabled }, session.planFlags);
};

const isActive = (path: string, current: string) => (path === "/" ? current === "/" : current === path || current.startsWith(`${path}/`));

/** The side menu (spec 1 section 2): entries, application version and logout. */
export function SideMenu({ onNavigate, onLogout }: { onNavigate?: () => void; onLogout: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const visible = useVisibleMenu();
  const items = session.planSettled ? visible : [];
  const { pathname } = useLocation();
  const version = useVersion();
  const connectionsAlert = useConnectionsAlert();
  const unreadChats = useUnreadInternalChats();
  const firstAdmin = items.findIndex((item) => item.adminOnly && item.path !== "/");

  const indicator = (key: string, icon: ReactElement) => {
    if (key === "connections" && connectionsAlert)
      return (
        <Badge color="error" variant="dot" overlap="circular" data-testid="connections-alert">
          {icon}
        </Badge>
      );
    if (key === "chats" && unreadChats)
      return (
        <Badge color="secondary" variant="dot" overlap="circular" data-testid="chats-unread">
          {icon}
        </Badge>
      );
    return icon;
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <Box sx={{ px: 2, pt: 1 }}>
        <BrandLogo destination="interno" maxHeight={48} />
      </Box>
      <List component="nav" data-testid="side-menu" dense sx={{ flex: 1, overflowY: "auto" }}>
        {items.map((item, index) => (
          <Fragment key={item.key}>
            {index === firstAdmin && (
              <>
                <Divider sx={{ my: 1 }} />
                <ListSubheader disableSticky sx={{ lineHeight: "32px", bgcolor: "transparent" }}>
                  {t("menu:administration")}
                </ListSubheader>
              </>
            )}
            <ListItemButton component={NavLink} to={item.path} selected={isActive(item.path, pathname)} onClick={onNavigate}>
              <ListItemIcon sx={{ minWidth: 40 }}>{indicator(item.key, MENU_ICONS[item.key] ?? FALLBACK_MENU_ICON)}</ListItemIcon>
              <ListItemText primary={t(`menu:${item.key}`)} />
            </ListItemButton>
          </Fragment>
        ))}
      </List>
      <Divider />
      <List dense>
        <ListItemButton onClick={onLogout} data-testid="logout">
          <ListItemIcon sx={{ minWidth: 40 }}>
            <LogoutIcon />
          </ListItemIcon>
          <ListItemText primary={t("menu:logout")} />
        </ListItemButton>
      </List>
      <Typography variant="caption" color="text.secondary" sx={{ px: 2, pb: 1 }} data-testid="app-version">
        {version.data ? t("menu:version", { version: version.data.version }) : "\u00a0"}
      </Typography>
    </Box>
  );
}
