import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { Toaster } from "../components/ui/toaster";
import i18n from "../lib/i18n";
import { queryClient as appQueryClient } from "../lib/query-client";
import { SessionProvider } from "./session/session-provider";
import { AppThemeProvider } from "./theme";

/** Everything a screen needs around it: i18n, react-query, theme, session, toasts. Tests pass their own query client. */
export function AppProviders({ children, queryClient = appQueryClient, realtime = true }: { children: ReactNode; queryClient?: typeof appQueryClient; realtime?: boolean }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AppThemeProvider>
          <SessionProvider realtime={realtime}>
            {children}
            <Toaster />
          </SessionProvider>
        </AppThemeProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
