import { Box, Button, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { Link, Route, Routes } from "react-router";
import { AppLayout } from "./layout/app-layout";
import { PublicOnly, RequireAuth, RouteGate } from "./route-guards";
import { PRIVATE_ROUTES, PUBLIC_ROUTES } from "./routes";

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
        <Route element={<AppLayout />}>
          {PRIVATE_ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteGate route={route} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}
