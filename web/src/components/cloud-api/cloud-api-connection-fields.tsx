import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Alert, Box, Button, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { PhoneNumberInfo } from "@atende/shared/domain/cloud-api/cloud-api-connection";
import { useTestConnection } from "../../lib/cloud-api";

export type CloudApiFormValues = {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  graphApiUrl: string;
  throughputPerSecond: string;
  ratingTemplate: string;
  inactivityTemplate: string;
  transferTemplate: string;
};
export const CLOUD_API_FORM_DEFAULTS: CloudApiFormValues = {
  phoneNumberId: "",
  wabaId: "",
  accessToken: "",
  appSecret: "",
  graphApiUrl: "",
  throughputPerSecond: "80",
  ratingTemplate: "",
  inactivityTemplate: "",
  transferTemplate: "",
};
/** What the API answers about a saved Cloud API connection (secrets masked). */
export type CloudApiSaved = { webhookUrl: string; verifyToken: string; phoneInfo: PhoneNumberInfo | null };

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation("cloudApi");
  return (
    <TextField
      size="small"
      label={label}
      value={value}
      fullWidth
      slotProps={{
        input: {
          readOnly: true,
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={t("fields.copy")}>
                <IconButton size="small" onClick={() => void navigator.clipboard?.writeText(value)} aria-label={t("fields.copy")}>
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
        htmlInput: { "data-testid": testId },
      }}
    />
  );
}

export function PhoneInfoView({ info }: { info: PhoneNumberInfo }) {
  const { t } = useTranslation("cloudApi");
  return (
    <Box data-testid="cloudapi-phone-info" sx={{ fontSize: 14 }}>
      <div>
        {t("test.displayNumber")}: <b data-testid="cloudapi-display-number">{info.displayPhoneNumber}</b>
      </div>
      <div>
        {t("test.verifiedName")}: <b data-testid="cloudapi-verified-name">{info.verifiedName}</b>
      </div>
      <div>
        {t("test.quality")}: <b>{t(`quality.${info.qualityRating}`, { defaultValue: info.qualityRating })}</b>
      </div>
      <div>
        {t("test.tier")}: <b>{info.messagingLimitTier ?? "—"}</b>
      </div>
    </Box>
  );
}

/** The Cloud API part of the connection dialog: credentials, the webhook URL and verify token to copy, the test. */
export function CloudApiConnectionFields(props: { value: CloudApiFormValues; onChange: (v: CloudApiFormValues) => void; whatsappId?: number; saved?: CloudApiSaved | null; errors?: Partial<Record<keyof CloudApiFormValues, string>> }) {
  const { t } = useTranslation("cloudApi");
  const test = useTestConnection();
  const set = (k: keyof CloudApiFormValues) => (e: React.ChangeEvent<HTMLInputElement>) => props.onChange({ ...props.value, [k]: e.target.value });
  const text = (k: keyof CloudApiFormValues, extra: { type?: string; required?: boolean; helper?: string } = {}) => (
    <TextField
      size="small"
      label={t(`fields.${k}`)}
      value={props.value[k]}
      onChange={set(k)}
      type={extra.type}
      required={extra.required}
      error={Boolean(props.errors?.[k])}
      helperText={props.errors?.[k] ?? extra.helper}
      fullWidth
      slotProps={{ htmlInput: { "data-testid": `cloudapi-${k}`, autoComplete: "off" } }}
    />
  );
  const result = test.data ?? (props.saved?.phoneInfo ? { ok: true as const, info: props.saved.phoneInfo } : null);
  return (
    <Stack spacing={1.5} data-testid="cloudapi-fields">
      <Typography variant="body2" color="text.secondary">
        {t("fields.intro")}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        {text("phoneNumberId", { required: true })}
        {text("wabaId", { required: true })}
      </Stack>
      {text("accessToken", { type: "password", required: !props.whatsappId, helper: props.whatsappId ? t("fields.keepSecret") : undefined })}
      {text("appSecret", { type: "password", required: !props.whatsappId, helper: props.whatsappId ? t("fields.keepSecret") : undefined })}
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        {text("graphApiUrl", { helper: t("fields.graphApiUrlHelp") })}
        {text("throughputPerSecond", { type: "number", helper: t("fields.throughputHelp") })}
      </Stack>
      <Typography variant="subtitle2">{t("fields.automatic")}</Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
        {text("ratingTemplate")}
        {text("inactivityTemplate")}
        {text("transferTemplate")}
      </Stack>
      {props.saved ? (
        <>
          <Typography variant="subtitle2">{t("fields.metaSettings")}</Typography>
          <CopyField label={t("fields.webhookUrl")} value={props.saved.webhookUrl} testId="cloudapi-webhook-url" />
          <CopyField label={t("fields.verifyToken")} value={props.saved.verifyToken} testId="cloudapi-verify-token" />
        </>
      ) : (
        <Alert severity="info">{t("fields.saveFirst")}</Alert>
      )}
      {props.whatsappId ? (
        <Stack direction="row" spacing={2} alignItems="flex-start">
          <Button variant="outlined" onClick={() => test.mutate(props.whatsappId!)} disabled={test.isPending} data-testid="cloudapi-test">
            {t("test.button")}
          </Button>
          {result ? result.ok ? <PhoneInfoView info={result.info} /> : <Alert severity="error" data-testid="cloudapi-test-error">{t("test.failed", { error: result.error })}</Alert> : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
