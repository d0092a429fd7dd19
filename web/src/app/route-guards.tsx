import { Box, Button, Typography } from "@mui/material";
import { Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { PageLoader } from "../components/ui/page-loader";
import { toast } from "../lib/toast";
import type { AppRoute } from "./routes";
import { useSession } from "../lib/session/session-context";
import { can } from "@atende/shared/domain/permissions/permissions";

/** Private area: no session -> /login (remembering where the user wanted to go). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  if (session.status === "loading") return <PageLoader fullScreen />;
  if (session.status === "error")
    return (
      <Box sx={{ p: 4, textAlign: "center" }}>
        <Typography variant="h6">{t("common:loadError.title")}</Typography>
        <Button onClick={session.retry}>{t("common:loadError.retry")}</Button>
      </Box>
    );
  if (session.status === "anonymous") return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Public area (login, signup, reset): a signed-in user goes to /. */
export function PublicOnly() {
  const session = useSession();
  if (session.status === "authenticated") return <Navigate to="/" replace />;
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Outlet />
    </Suspense>
  );
}

const REDIRECT_AFTER_MS = 1000;

/** Refused: an error toast (the plan's wording when the company's plan lacks the feature), then / after 1 s. */
function Denied({ byPlan }: { byPlan: boolean }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    toast.error(t(byPlan ? "common:noPermissionRedirect" : "errors:ERR_NO_PERMISSION"));
    const timer = setTimeout(() => navigate("/", { replace: true }), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [navigate, t, byPlan]);
  return null;
}

/** Applies a registry entry's gates (admin, super, plan flag) before rendering its page. */
export function RouteGate({ route }: { route: AppRoute }) {
  const session = useSession();
  if (session.status !== "authenticated") return null;
  const { user } = session;
  if (route.planFlag && !session.planSettled) return <PageLoader />;
  const profileAllows = (!route.adminOnly || user.profile === "admin") && (!route.permission || can(user.profile, route.permission)) && (!route.superOnly || user.super);
  const planAllows = !route.planFlag || session.planFlags[route.planFlag];
  if (!profileAllows || !planAllows) return route.deniedRedirect ? <Navigate to={route.deniedRedirect} replace /> : <Denied byPlan={profileAllows} />;
  const Page = route.Component;
  return (
    <Suspense fallback={<PageLoader />}>
      <Page />
    </Suspense>
  );
}
