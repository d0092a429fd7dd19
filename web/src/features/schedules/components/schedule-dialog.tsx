import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormHelperText, MenuItem, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
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
  const [draft, setDraft] = useState<Omit<ScheduleDraft, "contactId">>({
    body: record?.body ?? "",
    sendAt: initialWhen ? toLocalInput(initialWhen) : "",
    whatsappId: record?.whatsappId ?? null,
  });
  const [submitted, setSubmitted] = useState(false);
  const errors = validateScheduleDraft({ ...draft, contactId: contact?.id ?? null }, new Date());
  const shown = submitted ? errors : {};

  const submit = () => {
    setSubmitted(true);
    if (Object.keys(errors).length || !contact) return;
    save.mutate(
      { id: record?.id, input: { contactId: contact.id, body: draft.body.trim(), sendAt: new Date(draft.sendAt).toISOString(), whatsappId: draft.whatsappId } },
      {
        onSuccess: async (saved) => {
          if (pendingFile) {
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
            value={draft.whatsappId === null ? "default" : String(draft.whatsappId)}
            onChange={(e) => setDraft({ ...draft, whatsappId: e.target.value === "default" ? null : Number(e.target.value) })}
          >
            <MenuItem value="default">{t("defaultConnection")}</MenuItem>
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={String(w.id)}>
                {w.name}
              </MenuItem>
            ))}
            {/* a connection no longer listed still shows as selected */}
            {draft.whatsappId !== null && !(connections.data ?? []).some((w) => w.id === draft.whatsappId) && (
              <MenuItem value={String(draft.whatsappId)}>#{draft.whatsappId}</MenuItem>
            )}
          </TextField>
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending || media.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
      <ConfirmDialog open={confirmRemove} title={t("removeAttachmentConfirm.title")} busy={media.isPending} onClose={() => setConfirmRemove(false)} onConfirm={removeAttachment}>
        {t("removeAttachmentConfirm.text", { name: shownAttachment ?? "" })}
      </ConfirmDialog>
    </Dialog>
  );
}
