import { Alert, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ChannelFormEntry, ChannelFormProps } from "./channel-forms";

/** The Telegram connection's fields: the bot token (masked once saved) and, for the stand-in, the Bot API address. */
function TelegramConnectionFields({ value, onChange, saved }: ChannelFormProps) {
  const { t } = useTranslation("channels");
  const field = (key: "botToken" | "telegramApiUrl", help: string) => (
    <TextField
      label={t(`telegram.${key}`)}
      helperText={help}
      value={typeof value[key] === "string" ? value[key] : ""}
      onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      fullWidth
      inputProps={{ "data-testid": `field-telegram-${key}`, autoComplete: "off" }}
    />
  );
  return (
    <Stack spacing={2} data-testid="telegram-fields">
      {field("botToken", t("telegram.botTokenHelp"))}
      {field("telegramApiUrl", t("telegram.telegramApiUrlHelp"))}
      {saved?.provider === "telegram" && saved.botUsername && (
        <Alert severity="success" data-testid="telegram-bot">
          {t("telegram.bot")}: @{saved.botUsername} — {t("telegram.webhookUrl")}: {saved.webhookUrl}
        </Alert>
      )}
    </Stack>
  );
}

export const telegramForm: ChannelFormEntry = {
  provider: "telegram",
  defaults: { botToken: "", telegramApiUrl: "" },
  fromView: (view) => (view.provider === "telegram" ? { botToken: view.botToken, telegramApiUrl: view.telegramApiUrl } : {}),
  Fields: TelegramConnectionFields,
};
