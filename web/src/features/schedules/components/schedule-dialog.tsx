import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormHelperText, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { TemplateChoice } from "../../../components/cloud-api/campaign-template-field";
import { AttachmentPicker } from "../../../components/ui/attachment-picker";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { ContactPicker } from "../../../components/ui/contact-picker";
import { useConnections } from "../../../lib/pickers";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { useSaveSchedule, useScheduleMedia } from "../api/schedules";
import { type ScheduleDraft, toLocalInput, validateScheduleDraft } from "./schedule-form";

/** The picker shows id, name and number only; a schedule carries exactly those of its contact. */
const asPickerContact = (c: { id: number; name: string; number: string }) => c as ContactView;

/**
 * Add or edit a scheduled message: contact (searched in the contacts), message, date and time (in the future), connection
 * ("default" = the company's default connection when it is sent), and one attachment sent with the message.
 * On a Cloud API connection (chosen, the default one, or preselected from a new schedule's contact who came through
 * one) the message is free text or an approved template (the default for a new schedule: it is delivered whatever
 * the 24-hour window), chosen in the template picker with its variables from the contact or typed; a template
 * schedule is pinned to that connection and has no attachment.
 */
export function ScheduleDialog(props: { record: ScheduleResponse | null; contact?: ContactView | null; day?: Date | null; onClose: () => void }) {
  const { record, onClose } = props;
  const { t } = useTranslation("schedules");
  const connections = useConnections();
  const save = useSaveSchedule();
  const media = useScheduleMedia();
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState(record?.mediaName ?? null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const shownAttachment = pendingFile?.name ?? mediaName;
  const removeAttachment = () => {
    if (pendingFile) setPendingFile(null);
    else if (record?.id && mediaName) media.mutate({ id: record.id, file: null }, { onSuccess: () => setMediaName(null), onError: toastError });
    setConfirmRemove(false);
  };
  const [contact, setContact] = useState<ContactView | null>(record ? asPickerContact(record.contact) : (props.contact ?? null));
  const initialWhen = record ? new Date(record.sendAt) : props.day ? new Date(props.day.getFullYear(), props.day.getMonth(), props.day.getDate(), 9, 0) : null;
  const list = connections.data ?? [];
  const isCloudApi = (id: number | null) => id !== null && list.some((w) => w.id === id && w.provider === "cloudapi");
  const [draft, setDraft] = useState<Omit<ScheduleDraft, "contactId" | "template">>({
    body: record?.body ?? "",
    sendAt: initialWhen ? toLocalInput(initialWhen) : "",
    whatsappId: record?.whatsappId ?? null,
  });
  // a new schedule's connection follows its contact's when that is a Cloud API one, until the user picks one
  const [connectionPicked, setConnectionPicked] = useState(Boolean(record));
  const contactWa = contact?.whatsappId ?? null;
  const contactConnection = !connectionPicked && draft.whatsappId === null && isCloudApi(contactWa) ? contactWa : null;
  const chosenId = draft.whatsappId ?? contactConnection;
  // the connection it will leave through: the chosen one, else the company's default
  const effectiveId = chosenId ?? list.find((w) => w.isDefault)?.id ?? null;
  const cloudApi = isCloudApi(effectiveId);
  const [kind, setKind] = useState<"text" | "template" | null>(record ? (record.template ? "template" : "text") : null);
  // a template belongs to one number: the one chosen for another connection does not count
  const [chosenTemplate, setChosenTemplate] = useState<{ whatsappId: number | null; value: TemplateSend } | null>(record?.template ? { whatsappId: record.whatsappId, value: record.template } : null);
  const template = chosenTemplate && chosenTemplate.whatsappId === effectiveId ? chosenTemplate.value : null;
  // a Cloud API connection: a new schedule starts as a template (delivered whatever the window); others are text
  const useTemplate = cloudApi && (kind ?? "template") === "template";
  const [submitted, setSubmitted] = useState(false);
  const errors = validateScheduleDraft({ ...draft, contactId: contact?.id ?? null, template: useTemplate ? { chosen: template } : undefined }, new Date());
  const shown = submitted ? errors : {};

  const pickConnection = (whatsappId: number | null) => {
    setConnectionPicked(true);
    setDraft({ ...draft, whatsappId });
  };

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length || !contact) return;
    const input = useTemplate
      ? // pinned to the connection the template belongs to, even when it is the default one
        { contactId: contact.id, body: draft.body.trim(), sendAt: new Date(draft.sendAt).toISOString(), whatsappId: effectiveId, template }
      : { contactId: contact.id, body: draft.body.trim(), sendAt: new Date(draft.sendAt).toISOString(), whatsappId: chosenId, ...(record?.template ? { template: null } : {}) };
    if (useTemplate && record?.id && mediaName) {
      // a template message carries no attachment: the stored one goes first
      try {
        await media.mutateAsync({ id: record.id, file: null });
        setMediaName(null);
      } catch (err) {
        toastError(err);
        return;
      }
    }
    save.mutate(
      { id: record?.id, input },
      {
        onSuccess: async (saved) => {
          if (pendingFile && !useTemplate) {
            try {
              await media.mutateAsync({ id: saved.id, file: pendingFile });
            } catch (err) {
              toastError(err);
              return;
            }
          }
          toast.success(t("saved"));
          onClose();
        },
        onError: toastError,
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <div data-testid="schedule-contact">
            <ContactPicker value={contact} onChange={setContact} label={t("fields.contact")} autoFocus={!contact} />
            {shown.contactId && <FormHelperText error>{t(`errors.${shown.contactId}`)}</FormHelperText>}
          </div>
          {cloudApi && (
            <Stack spacing={1}>
              <ToggleButtonGroup
                exclusive
                size="small"
                value={useTemplate ? "template" : "text"}
                onChange={(_e, v: "text" | "template" | null) => v && setKind(v)}
                aria-label={t("template.kind")}
                data-testid="schedule-kind"
              >
                <ToggleButton value="template">{t("template.kindTemplate")}</ToggleButton>
                <ToggleButton value="text">{t("template.kindText")}</ToggleButton>
              </ToggleButtonGroup>
              <Alert severity={useTemplate ? "info" : "warning"} sx={{ py: 0 }}>
                {useTemplate ? t("template.templateHint") : t("template.textHint")}
              </Alert>
            </Stack>
          )}
          {useTemplate && effectiveId !== null ? (
            <Stack spacing={1} data-testid="schedule-template">
              <TemplateChoice whatsappId={effectiveId} value={template} onChange={(value) => setChosenTemplate({ whatsappId: effectiveId, value })} fill="contact" contact={contact ?? undefined} testId="schedule-template" />
              {shown.template && <FormHelperText error>{t(`errors.${shown.template}`)}</FormHelperText>}
            </Stack>
          ) : (
            <TextField
              label={t("fields.body")}
              value={draft.body}
              onChange={(e) => setDraft({ ...draft, body: e.target.value })}
              multiline
              minRows={4}
              maxRows={10}
              required
              error={!!shown.body}
              helperText={shown.body ? t(`errors.${shown.body}`) : undefined}
            />
          )}
          <TextField
            label={t("fields.sendAt")}
            type="datetime-local"
            value={draft.sendAt}
            onChange={(e) => setDraft({ ...draft, sendAt: e.target.value })}
            required
            error={!!shown.sendAt}
            helperText={shown.sendAt ? t(`errors.${shown.sendAt}`) : undefined}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            label={t("fields.connection")}
            value={chosenId === null ? "default" : String(chosenId)}
            onChange={(e) => pickConnection(e.target.value === "default" ? null : Number(e.target.value))}
          >
            <MenuItem value="default">{t("defaultConnection")}</MenuItem>
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={String(w.id)}>
                {w.name}
              </MenuItem>
            ))}
            {/* a connection no longer listed still shows as selected */}
            {chosenId !== null && !list.some((w) => w.id === chosenId) && <MenuItem value={String(chosenId)}>#{chosenId}</MenuItem>}
          </TextField>
          {!useTemplate && (
            <Stack direction="row" alignItems="center" spacing={1}>
              <AttachmentPicker
                testId="schedule"
                name={shownAttachment}
                onPick={setPendingFile}
                onRemove={() => setConfirmRemove(true)}
                attachLabel={t("attach")}
                removeLabel={t("removeAttachment")}
              />
            </Stack>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={save.isPending || media.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
      <ConfirmDialog open={confirmRemove} title={t("removeAttachmentConfirm.title")} busy={media.isPending} onClose={() => setConfirmRemove(false)} onConfirm={removeAttachment}>
        {t("removeAttachmentConfirm.text", { name: shownAttachment ?? "" })}
      </ConfirmDialog>
    </Dialog>
  );
}
