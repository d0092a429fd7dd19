import { Box, Button, Typography } from "@mui/material";
import { Suspense, lazy } from "react";
import { useTranslation } from "react-i18next";
import { Link, Route, Routes } from "react-router";
import { PageLoader } from "../components/ui/page-loader";
import { loadAllTranslations } from "../lib/i18n";
import { PublicOnly, RequireAuth, RouteGate } from "./route-guards";
import { PRIVATE_ROUTES, PUBLIC_ROUTES } from "./routes";

/**
 * The layout (top bar, side menu, their popovers and dialogs) and the translations past the login page are not part
 * of the first screen: they load once signed in (issue 15, ADR 0037).
 */
export const loadAppLayout = () => Promise.all([import("./layout/app-layout"), loadAllTranslations()]).then(([m]) => m);
const AppLayout = lazy(() => loadAppLayout().then((m) => ({ default: m.AppLayout })));

function NotFound() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 4, textAlign: "center" }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t("common:notFound.title")}
      </Typography>
      <Button component={Link} to="/">
        {t("common:notFound.back")}
      </Button>
    </Box>
  );
}

/** All routes: public ones (signed-in users bounce to /), private ones inside the layout behind the session guard. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        {PUBLIC_ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={<route.Component />} />
        ))}
      </Route>
      <Route element={<RequireAuth />}>
        <Route
          element={
            <Suspense fallback={<PageLoader fullScreen />}>
              <AppLayout />
            </Suspense>
          }
        >
          {PRIVATE_ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteGate route={route} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}
