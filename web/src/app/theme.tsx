import { CssBaseline, ThemeProvider, createTheme } from "@mui/material";
import { enUS, esES, ptBR } from "@mui/material/locale";
import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { THEME_MODE, usePreference } from "../lib/preferences";

const MUI_LOCALES = { pt: ptBR, en: enUS, es: esES } as const;

/** Light or dark (saved in localStorage `themeMode`, default: the system preference); MUI texts follow the language. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode] = usePreference(THEME_MODE);
  const { i18n } = useTranslation();
  const lng = (i18n.resolvedLanguage ?? "pt") as keyof typeof MUI_LOCALES;
  const theme = useMemo(
    () =>
      createTheme(
        {
          palette: {
            mode,
            primary: { main: mode === "dark" ? "#5c9ded" : "#2563a8" },
            secondary: { main: "#1fa855" },
            background: mode === "dark" ? { default: "#121212", paper: "#1e1e1e" } : { default: "#f4f6f8", paper: "#ffffff" },
          },
          shape: { borderRadius: 8 },
        },
        MUI_LOCALES[lng] ?? ptBR,
      ),
    [mode, lng],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
