import TranslateIcon from "@mui/icons-material/Translate";
import { IconButton, Menu, MenuItem, Tooltip } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES, changeLanguage } from "../../lib/i18n";

/** pt / en / es; the choice is kept in localStorage `language`. */
export function LanguageSelector({ color = "inherit" }: { color?: "inherit" | "default" }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t("common:language")}>
        <IconButton color={color} aria-label={t("common:language")} data-testid="language-button" onClick={(e) => setAnchor(e.currentTarget)}>
          <TranslateIcon />
        </IconButton>
      </Tooltip>
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
