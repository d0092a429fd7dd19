import { Alert, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ChannelFormEntry, ChannelFormProps } from "./channel-forms";

type MetaKind = "messenger" | "instagram";
type MetaKey = "pageId" | "instagramAccountId" | "pageAccessToken" | "appSecret" | "graphApiUrl";

/**
 * The Messenger / Instagram connection's fields (docs/adr/0090): the page (or Instagram account) id, its page
 * access token and the app secret (masked once saved), the Graph address for the stand-in; once saved, the webhook
 * URL and verify token to paste in Meta's app settings.
 */
const metaFields = (kind: MetaKind) =>
  function MetaConnectionFields({ value, onChange, saved }: ChannelFormProps) {
    const { t } = useTranslation("channels");
    const idKey: MetaKey = kind === "instagram" ? "instagramAccountId" : "pageId";
    const field = (key: MetaKey) => (
      <TextField
        key={key}
        label={t(`meta.${key}`)}
        helperText={t(`meta.${key}Help`)}
        value={typeof value[key] === "string" ? value[key] : ""}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
        fullWidth
        inputProps={{ "data-testid": `field-${kind}-${key}`, autoComplete: "off" }}
      />
    );
    const view = saved && saved.provider === kind ? (saved as { webhookUrl?: string; verifyToken?: unknown }) : null;
    return (
      <Stack spacing={2} data-testid={`${kind}-fields`}>
        {field(idKey)}
        {field("pageAccessToken")}
        {field("appSecret")}
        {field("graphApiUrl")}
        {view?.webhookUrl && (
          <Alert severity="info" data-testid={`${kind}-webhook`}>
            {t("meta.webhookUrl")}: {view.webhookUrl}
            <br />
            {t("meta.verifyToken")}: {typeof view.verifyToken === "string" ? view.verifyToken : ""}
          </Alert>
        )}
      </Stack>
    );
  };

const entry = (kind: MetaKind): ChannelFormEntry => {
  const idKey = kind === "instagram" ? "instagramAccountId" : "pageId";
  return {
    provider: kind,
    defaults: { [idKey]: "", pageAccessToken: "", appSecret: "", graphApiUrl: "" },
    fromView: (view) => {
      const v = view as Record<string, unknown>;
      return view.provider === kind ? { [idKey]: v[idKey] ?? "", pageAccessToken: v.pageAccessToken ?? "", appSecret: v.appSecret ?? "", graphApiUrl: v.graphApiUrl ?? "" } : {};
    },
    Fields: metaFields(kind),
    keepOpenAfterCreate: true,
  };
};

export const messengerForm = entry("messenger");
export const instagramForm = entry("instagram");
