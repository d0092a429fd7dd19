import { TextField } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The code box: six digits from the app (or, where allowed, a recovery code). */
export function CodeField(props: { value: string; onChange: (v: string) => void; allowRecovery?: boolean; autoFocus?: boolean; error?: string }) {
  const { t } = useTranslation("mfa");
  return (
    <TextField
      label={props.allowRecovery ? t("codeOrRecovery") : t("code")}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      autoFocus={props.autoFocus}
      autoComplete="one-time-code"
      error={!!props.error}
      helperText={props.error}
      fullWidth
      slotProps={{ htmlInput: { inputMode: props.allowRecovery ? "text" : "numeric", maxLength: 24, "data-testid": "mfa-code" } }}
    />
  );
}
