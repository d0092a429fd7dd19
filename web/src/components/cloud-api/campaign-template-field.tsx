import { Alert, Box, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { renderTemplate, type TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { useTemplates } from "../../lib/cloud-api";
import { TemplatePicker } from "./template-picker";

type Contact = { name?: string | null; number?: string | null; email?: string | null };

/**
 * A chosen template of a Cloud API connection, kept in a form (campaign, schedule): its name, its preview with the
 * values, and the button that opens the picker to choose or change it. `fill` says what a variable "from the
 * contact" gets: a campaign placeholder filled per recipient, or the given contact's value.
 */
export function TemplateChoice(props: {
  whatsappId: number;
  value: TemplateSend | null;
  onChange: (t: TemplateSend) => void;
  disabled?: boolean;
  fill: "contact" | "placeholders";
  contact?: Contact;
  testId: string;
}) {
  const { t } = useTranslation("cloudApi");
  const { whatsappId, value } = props;
  const [open, setOpen] = useState(false);
  const templates = useTemplates(value ? whatsappId : null);
  const stored = value ? templates.data?.find((x) => x.name === value.name && x.language === value.language) : undefined;
  return (
    <>
      {value ? (
        <Box>
          <Typography variant="subtitle2">
            {value.name} · {value.language}
          </Typography>
          <Box sx={{ whiteSpace: "pre-wrap", bgcolor: "action.hover", p: 1.5, borderRadius: 1 }} data-testid={`${props.testId}-preview`}>
            {stored ? renderTemplate(stored, value.values) : value.name}
          </Box>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t("campaign.none")}
        </Typography>
      )}
      {!props.disabled && (
        <Box>
          <Button variant="outlined" onClick={() => setOpen(true)} data-testid={`${props.testId}-choose`}>
            {value ? t("campaign.change") : t("campaign.choose")}
          </Button>
        </Box>
      )}
      {open ? (
        <TemplatePicker
          open
          mode="choose"
          fill={props.fill}
          contact={props.contact}
          whatsappId={whatsappId}
          initial={value}
          onClose={() => setOpen(false)}
          onSend={(tpl) => {
            props.onChange(tpl);
            setOpen(false);
          }}
        />
      ) : null}
    </>
  );
}

/**
 * The campaign dialog's message on a Cloud API connection: campaigns there send an approved template only (the API
 * refuses anything else with ERR_CAMPAIGN_TEMPLATE_REQUIRED). Shows the chosen template's preview (placeholders such
 * as {nome} are filled per recipient) and opens the picker to choose or change it.
 */
export function CampaignTemplateField({ whatsappId, value, onChange, disabled }: { whatsappId: number; value: TemplateSend | null; onChange: (t: TemplateSend) => void; disabled?: boolean }) {
  const { t } = useTranslation("cloudApi");
  return (
    <Stack spacing={1} data-testid="campaign-template">
      <Alert severity="info">{t("campaign.templatesOnly")}</Alert>
      <TemplateChoice whatsappId={whatsappId} value={value} onChange={onChange} disabled={disabled} fill="placeholders" testId="campaign-template" />
    </Stack>
  );
}
