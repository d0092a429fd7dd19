import { Alert, Checkbox, FormControlLabel, Stack, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ChannelFormEntry, ChannelFormProps } from "./channel-forms";

const lines = (v: unknown) => (Array.isArray(v) ? v.join("\n") : typeof v === "string" ? v : "");
const str = (v: unknown, fallback = "") => (typeof v === "string" ? v : fallback);

/**
 * The website chat connection's fields (docs/adr/0092): the sites allowed to embed it (one origin a line), the
 * greeting, the colour, what is asked first; once saved, the one-line snippet to paste on the site.
 */
function WebchatConnectionFields({ value, onChange, saved }: ChannelFormProps) {
  const { t } = useTranslation("channels");
  const set = (key: string, v: unknown) => onChange({ ...value, [key]: v });
  const snippet = saved?.provider === "webchat" && typeof saved.snippet === "string" ? saved.snippet : null;
  return (
    <Stack spacing={2} data-testid="webchat-fields">
      <TextField
        label={t("webchat.allowedOrigins")}
        helperText={t("webchat.allowedOriginsHelp")}
        value={lines(value.allowedOrigins)}
        onChange={(e) => set("allowedOrigins", e.target.value.split("\n"))}
        multiline
        minRows={2}
        fullWidth
        inputProps={{ "data-testid": "field-webchat-allowedOrigins" }}
      />
      <TextField label={t("webchat.greeting")} value={str(value.greeting)} onChange={(e) => set("greeting", e.target.value)} fullWidth multiline inputProps={{ "data-testid": "field-webchat-greeting" }} />
      <TextField label={t("webchat.color")} type="color" value={str(value.color, "#2576d2")} onChange={(e) => set("color", e.target.value)} sx={{ width: 160 }} inputProps={{ "data-testid": "field-webchat-color" }} />
      <Typography variant="body2">{t("webchat.askFirst")}</Typography>
      <Stack direction="row" spacing={1}>
        {(["askName", "askEmail", "askPhone"] as const).map((k) => (
          <FormControlLabel key={k} label={t(`webchat.${k}`)} control={<Checkbox checked={value[k] === true} onChange={(e) => set(k, e.target.checked)} inputProps={{ "aria-label": t(`webchat.${k}`) }} />} />
        ))}
      </Stack>
      {snippet && (
        <Alert severity="success" data-testid="webchat-snippet">
          {t("webchat.snippet")}
          <Typography component="pre" variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all", m: 0, mt: 1, fontFamily: "monospace" }}>
            {snippet}
          </Typography>
        </Alert>
      )}
    </Stack>
  );
}

export const webchatForm: ChannelFormEntry = {
  provider: "webchat",
  defaults: { allowedOrigins: [], greeting: "", color: "#2576d2", askName: true, askEmail: false, askPhone: false },
  fromView: (view) =>
    view.provider === "webchat"
      ? { allowedOrigins: view.allowedOrigins, greeting: view.greeting, color: view.color, askName: view.askName, askEmail: view.askEmail, askPhone: view.askPhone }
      : {},
  Fields: WebchatConnectionFields,
  keepOpenAfterCreate: true,
};
