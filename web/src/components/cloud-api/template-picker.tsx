import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemText, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  fillFromContact,
  isSendable,
  missingValues,
  renderTemplate,
  TEMPLATE_CONTACT_FIELDS,
  variablesOf,
  type TemplateSend,
  type TemplateValues,
} from "@atende/shared/domain/cloud-api/message-templates";
import { useSyncTemplates, useTemplates, type StoredTemplate } from "../../lib/cloud-api";

type Contact = { name?: string | null; number?: string | null; email?: string | null };

/** The campaign placeholders a variable can take instead of a contact's value (filled per recipient by the server). */
export const CAMPAIGN_PLACEHOLDERS: Record<(typeof TEMPLATE_CONTACT_FIELDS)[number], string> = { name: "{nome}", number: "{numero}", email: "{email}" };

/**
 * Choosing an approved template of a Cloud API connection, filling its variables (typed, or from a contact field)
 * with a live preview; used by the composer (window closed or open: `onSend` sends it), the campaign dialog
 * (`mode="choose"`: the contact fields become the campaign placeholders {nome}, {numero}, {email}, filled per
 * recipient; `initial` is the campaign's current template) and the schedule dialog (`mode="choose"` with
 * `fill="contact"`: the contact fields fill in the scheduled contact's values).
 */
export function TemplatePicker(props: {
  open: boolean;
  whatsappId: number;
  contact?: Contact;
  onClose: () => void;
  onSend: (t: TemplateSend, preview: string) => void;
  busy?: boolean;
  mode?: "send" | "choose";
  /** what "from the contact" puts in a variable: the contact's value, or a campaign placeholder (default: by mode) */
  fill?: "contact" | "placeholders";
  initial?: TemplateSend | null;
}) {
  const { t } = useTranslation("cloudApi");
  const choose = props.mode === "choose";
  const placeholders = (props.fill ?? (choose ? "placeholders" : "contact")) === "placeholders";
  const templates = useTemplates(props.open ? props.whatsappId : null);
  const sync = useSyncTemplates();
  const [chosen, setChosen] = useState<StoredTemplate | null>(null);
  const [values, setValues] = useState<TemplateValues>({ header: {}, body: {} });
  // the campaign's current template, once the list is there
  const initial = props.initial;
  useEffect(() => {
    if (!initial || chosen) return;
    const found = templates.data?.find((x) => x.name === initial.name && x.language === initial.language);
    if (found) {
      setChosen(found);
      setValues({ header: { ...initial.values.header }, body: { ...initial.values.body } });
    }
  }, [initial, chosen, templates.data]);
  const vars = useMemo(() => (chosen ? variablesOf(chosen) : { header: [], body: [] }), [chosen]);
  const missing = chosen ? missingValues(chosen, values) : [];
  const set = (part: "header" | "body", name: string, value: string) => setValues((v) => ({ ...v, [part]: { ...v[part], [name]: value } }));
  const pick = (tpl: StoredTemplate) => {
    setChosen(tpl);
    setValues({ header: {}, body: {} });
  };
  const fromContact = (f: (typeof TEMPLATE_CONTACT_FIELDS)[number]) => (placeholders ? CAMPAIGN_PLACEHOLDERS[f] : fillFromContact(f, props.contact ?? {}));
  const field = (part: "header" | "body", name: string) => (
    <Stack key={`${part}.${name}`} direction="row" spacing={1} alignItems="center">
      <TextField
        size="small"
        label={t(`picker.${part}Var`, { name })}
        value={values[part][name] ?? ""}
        onChange={(e) => set(part, name, e.target.value)}
        inputProps={{ "data-testid": `template-var-${part}-${name}` }}
        sx={{ flex: 1 }}
      />
      {props.contact || placeholders ? (
        <TextField
          select
          size="small"
          label={t("picker.fromContact")}
          value=""
          onChange={(e) => set(part, name, fromContact(e.target.value as (typeof TEMPLATE_CONTACT_FIELDS)[number]))}
          sx={{ width: 160 }}
          data-testid={`template-from-contact-${part}-${name}`}
        >
          {TEMPLATE_CONTACT_FIELDS.map((f) => (
            <MenuItem key={f} value={f}>
              {t(`picker.contactField.${f}`)}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
    </Stack>
  );
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t("picker.title")}</DialogTitle>
      <DialogContent>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
          <Box sx={{ minWidth: 240 }}>
            <List dense data-testid="template-list">
              {(templates.data ?? []).map((tpl) => (
                <ListItemButton key={`${tpl.name}#${tpl.language}`} selected={chosen?.name === tpl.name && chosen.language === tpl.language} disabled={!isSendable(tpl)} onClick={() => pick(tpl)} data-testid={`template-${tpl.name}`}>
                  <ListItemText primary={tpl.name} secondary={`${tpl.language} · ${t(`category.${tpl.category}`, { defaultValue: tpl.category })} · ${t(`status.${tpl.status}`, { defaultValue: tpl.status })}`} />
                </ListItemButton>
              ))}
            </List>
            {templates.data?.length === 0 ? <Typography variant="body2">{t("picker.none")}</Typography> : null}
            <Button size="small" onClick={() => sync.mutate(props.whatsappId)} disabled={sync.isPending} data-testid="template-sync">
              {t("picker.sync")}
            </Button>
          </Box>
          <Stack spacing={1.5} sx={{ flex: 1 }}>
            {chosen ? (
              <>
                {vars.header.map((n) => field("header", n))}
                {vars.body.map((n) => field("body", n))}
                <Typography variant="subtitle2">{t("picker.preview")}</Typography>
                <Box sx={{ whiteSpace: "pre-wrap", bgcolor: "action.hover", p: 1.5, borderRadius: 1 }} data-testid="template-preview">
                  {renderTemplate(chosen, values)}
                </Box>
                {chosen.buttons.length ? <Typography variant="caption">{chosen.buttons.map((b) => `[${b.text}]`).join(" ")}</Typography> : null}
                {missing.length ? <Alert severity="info">{t("picker.missing")}</Alert> : null}
                {placeholders ? <Typography variant="caption">{t("picker.placeholdersHint")}</Typography> : null}
              </>
            ) : (
              <Typography variant="body2">{t("picker.choose")}</Typography>
            )}
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("picker.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!chosen || missing.length > 0 || props.busy}
          onClick={() => chosen && props.onSend({ name: chosen.name, language: chosen.language, values }, renderTemplate(chosen, values))}
          data-testid="template-send"
        >
          {choose ? t("picker.use") : t("picker.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
