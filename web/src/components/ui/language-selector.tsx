import TranslateIcon from "@mui/icons-material/Translate";
import { IconButton, Menu, MenuItem } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, changeLanguage } from "../../lib/i18n";

/** pt / en / es; the choice is kept in localStorage `language`. */
export function LanguageSelector({ color = "inherit" }: { color?: "inherit" | "default" }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      {/* the browser's own tooltip (title), not MUI's: the login page would load the popper for it (issue 15) */}
      <IconButton color={color} aria-label={t("common:language")} title={t("common:language")} data-testid="language-button" onClick={(e) => setAnchor(e.currentTarget)}>
        <TranslateIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lng) => (
          <MenuItem
            key={lng}
            selected={i18n.resolvedLanguage === lng}
            onClick={() => {
              setAnchor(null);
              void changeLanguage(lng);
            }}
          >
            {t(`common:languages.${lng}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
