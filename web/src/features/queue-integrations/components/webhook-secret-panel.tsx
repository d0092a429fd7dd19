import { Alert, Box, Button, IconButton, InputAdornment, Stack, TextField, Tooltip, Typography } from "@mui/material";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";
import { useRotateWebhookSecret } from "../api/webhook-secret";

/**
 * The signing secret of an n8n/webhook integration (docs/integrations.md). The server shows a secret only once: in
 * the answer that made it (create, a switch to these types, rotate). Here it is shown with a copy button and a
 * warning; afterwards only whether one is set, and a rotate button (with a confirmation: the old one stops working).
 */
export function WebhookSecretPanel({ integrationId, hasSecret, secret, onSecret }: { integrationId: number | null; hasSecret: boolean; secret: string | null; onSecret: (secret: string) => void }) {
  const { t } = useTranslation("queueIntegrations");
  const rotate = useRotateWebhookSecret();
  const [confirming, setConfirming] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? "");
      toast.success(t("secret.copied"));
    } catch {
      toast.error(t("secret.copyFailed"));
    }
  };
  const doRotate = () => {
    if (!integrationId) return;
    rotate.mutate(integrationId, {
      onSuccess: (out) => {
        setConfirming(false);
        onSecret(out.webhookSecret);
        toast.success(t("secret.rotated"));
      },
    });
  };

  return (
    <Box data-testid="webhook-secret-panel">
      <Typography variant="subtitle2" gutterBottom>
        {t("secret.title")}
      </Typography>
      {secret ? (
        <Stack spacing={1}>
          <Alert severity="warning">{t("secret.showOnce")}</Alert>
          <TextField
            label={t("secret.label")}
            value={secret}
            fullWidth
            slotProps={{
              input: {
                readOnly: true,
                sx: { fontFamily: "monospace" },
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={t("secret.copy")}>
                      <IconButton aria-label={t("secret.copy")} onClick={() => void copy()} edge="end">
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
              htmlInput: { "data-testid": "webhook-secret" },
            }}
          />
        </Stack>
      ) : (
        <Stack spacing={1} alignItems="flex-start">
          <Typography variant="body2" color="text.secondary">
            {integrationId === null ? t("secret.onSave") : hasSecret ? t("secret.isSet") : t("secret.notSet")}
          </Typography>
          {integrationId !== null && !confirming && (
            <Button size="small" variant="outlined" onClick={() => setConfirming(true)}>
              {t("secret.rotate")}
            </Button>
          )}
          {integrationId !== null && confirming && (
            <Alert
              severity="info"
              action={
                <Stack direction="row" spacing={1}>
                  <Button size="small" onClick={() => setConfirming(false)}>
                    {t("common:cancel")}
                  </Button>
                  <Button size="small" variant="contained" onClick={doRotate} loading={rotate.isPending}>
                    {t("secret.rotateConfirm")}
                  </Button>
                </Stack>
              }
            >
              {t("secret.rotateWarning")}
            </Alert>
          )}
        </Stack>
      )}
    </Box>
  );
}
