import { Box, Button, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Route, Routes, matchPath, useLocation } from "react-router";
import { PageLoader } from "../components/ui/page-loader";
// static on purpose (< 1 kB): the first lists start with the refresh's answer, not after the tickets page's chunk
import { prefetchTicketLists } from "../features/inbox/tickets/api/tickets-list";
import { loadAllTranslations } from "../lib/i18n";
import { componentLoaded, lazyPage, loadComponent } from "../lib/lazy-page";
import { PublicOnly, RequireAuth, RouteGate } from "./route-guards";
import { PRIVATE_ROUTES, PUBLIC_ROUTES } from "./routes";

/**
 * The layout (top bar, side menu, their popovers and dialogs) and the translations past the login page are not part
 * of the first screen: they load once signed in (issue 15, ADR 0037).
 */
export const loadAppLayout = () => Promise.all([import("./layout/app-layout"), loadAllTranslations()]).then(([m]) => m);
const AppLayout = lazyPage(() => loadAppLayout().then((m) => m.AppLayout));

export const isTicketsPath = (pathname: string) => pathname === "/tickets" || pathname.startsWith("/tickets/");

/** The private route a path opens (its page's code is what the signed-in shell waits for). */
const privateRouteOf = (pathname: string) => PRIVATE_ROUTES.find((route) => matchPath(route.path, pathname));

/**
 * The code a signed-in page load needs, all at once instead of one chunk after the other (layout, then the page):
 * the layout with the translations and the page the path opens (on /tickets, where sign-in lands, the tickets page).
 * main.tsx calls it while the session is being restored, the signed-in shell when the session starts; it settles
 * when all of it is in (a failure is left to the lazy components, which ask again and show the error).
 */
export const preloadSignedIn = (pathname: string): Promise<void> => {
  const page = privateRouteOf(pathname);
  return Promise.all([AppLayout.load(), page ? loadComponent(page.Component) : undefined]).then(
    () => undefined,
    () => undefined,
  );
};

/** Whether `preloadSignedIn(pathname)`'s code is already in (main.tsx started it while the session was coming back). */
const signedInCodeIn = (pathname: string): boolean => {
  const page = privateRouteOf(pathname);
  return AppLayout.loaded() && (!page || componentLoaded(page.Component));
};

/**
 * A visitor without a session: the login page's code (where "/" and every private path lead) and the public page the
 * path opens. main.tsx awaits it before the first render, so the form mounts without a Suspense fallback and React's
 * reveal throttle does not hold it back (ADR 0047); the login page is part of the first screen's set anyway.
 */
export const preloadPublic = (pathname: string): Promise<void> => {
  const pages = PUBLIC_ROUTES.filter((route) => route.path === "/login" || matchPath(route.path, pathname));
  return Promise.all(pages.map((route) => loadComponent(route.Component))).then(
    () => undefined,
    () => undefined,
  );
};

/**
 * The signed-in area: starts the code and, on /tickets, the first lists' data together, and renders the layout
 * with the page once their code is in — a plain loader until then, not a Suspense fallback, so the first card is
 * not held back by React's reveal throttle (ADR 0047); later navigations suspend in the layout as usual.
 */
function SignedInShell() {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  // usually in already on a page load (main.tsx asked for it with the session's restore): then the layout and the page
  // mount in this render, without a loader's render and commit first
  const [codeIn, setCodeIn] = useState(() => signedInCodeIn(pathname));
  useEffect(() => {
    let live = true;
    if (!codeIn) void preloadSignedIn(pathname).then(() => live && setCodeIn(true));
    if (isTicketsPath(pathname)) void prefetchTicketLists(queryClient);
    return () => {
      live = false;
    };
    // once, when the session starts: later navigations load their own page
  }, []);
  if (!codeIn) return <PageLoader fullScreen />;
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <AppLayout />
    </Suspense>
  );
}

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
        <Route element={<SignedInShell />}>
          {PRIVATE_ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteGate route={route} />} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}
