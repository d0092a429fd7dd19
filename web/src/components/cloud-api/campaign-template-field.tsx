import { Alert, Box, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { renderTemplate, type TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { useTemplates } from "../../lib/cloud-api";
import { TemplatePicker } from "./template-picker";

/**
 * The campaign dialog's message on a Cloud API connection: campaigns there send an approved template only (the API
 * refuses anything else with ERR_CAMPAIGN_TEMPLATE_REQUIRED). Shows the chosen template's preview (placeholders such
 * as {nome} are filled per recipient) and opens the picker to choose or change it.
 */
export function CampaignTemplateField({ whatsappId, value, onChange, disabled }: { whatsappId: number; value: TemplateSend | null; onChange: (t: TemplateSend) => void; disabled?: boolean }) {
  const { t } = useTranslation("cloudApi");
  const [open, setOpen] = useState(false);
  const templates = useTemplates(value ? whatsappId : null);
  const stored = value ? templates.data?.find((x) => x.name === value.name && x.language === value.language) : undefined;
  return (
    <Stack spacing={1} data-testid="campaign-template">
      <Alert severity="info">{t("campaign.templatesOnly")}</Alert>
      {value ? (
        <Box>
          <Typography variant="subtitle2">
            {value.name} · {value.language}
          </Typography>
          <Box sx={{ whiteSpace: "pre-wrap", bgcolor: "action.hover", p: 1.5, borderRadius: 1 }} data-testid="campaign-template-preview">
            {stored ? renderTemplate(stored, value.values) : value.name}
          </Box>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t("campaign.none")}
        </Typography>
      )}
      {!disabled && (
        <Box>
          <Button variant="outlined" onClick={() => setOpen(true)} data-testid="campaign-template-choose">
            {value ? t("campaign.change") : t("campaign.choose")}
          </Button>
        </Box>
      )}
      {open ? (
        <TemplatePicker
          open
          mode="choose"
          whatsappId={whatsappId}
          initial={value}
          onClose={() => setOpen(false)}
          onSend={(tpl) => {
            onChange(tpl);
            setOpen(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
