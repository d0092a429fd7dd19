import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from "@mui/material";
import { useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import { quickMessageSchema } from "@atende/shared/domain/quick-messages/quick-message";
import { AttachmentPicker } from "../../../components/ui/attachment-picker";
import { useIsAdmin } from "../../../lib/session/session-context";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { type QuickMessageForm, useQuickMessageMedia, useSaveQuickMessage } from "../api/quick-messages";

/** Add or edit a quick message: shortcode (required), message, general flag (admins), one attachment. */
export function QuickMessageDialog({ record, onClose }: { record: QuickMessageResponse | null; onClose: () => void }) {
  const { t } = useTranslation("quickMessages");
  const isAdmin = useIsAdmin();
  const [form, setForm] = useState<QuickMessageForm>({ shortcode: record?.shortcode ?? "", message: record?.message ?? "", geral: record?.geral ?? false });
  const [touched, setTouched] = useState(false);
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState(record?.mediaName ?? null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useSaveQuickMessage();
  const media = useQuickMessageMedia();

  const parsed = quickMessageSchema.shape.shortcode.safeParse(form.shortcode);
  const shortcodeError = touched && !parsed.success ? fieldError({ type: "zod", message: parsed.error.issues[0]?.message } as FieldError) : undefined;

  const submit = () => {
    setTouched(true);
    if (!parsed.success) return;
    save.mutate(
      { id: record?.id, input: form },
      {
        onSuccess: async (saved) => {
          if (pendingFile) await media.mutateAsync({ id: saved.id, file: pendingFile });
          toast.success(t("saved"));
          onClose();
        },
      },
    );
  };

  const removeAttachment = () => {
    if (pendingFile) setPendingFile(null);
    else if (record?.id && mediaName) media.mutate({ id: record.id, file: null }, { onSuccess: () => setMediaName(null) });
    setConfirmRemove(false);
  };
  const shownAttachment = pendingFile?.name ?? mediaName;

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t("fields.shortcode")}
            value={form.shortcode}
            onChange={(e) => setForm({ ...form, shortcode: e.target.value })}
            onBlur={() => setTouched(true)}
            error={!!shortcodeError}
            helperText={shortcodeError}
            required
            autoFocus
          />
          <TextField label={t("fields.message")} value={form.message} onChange={(e) => setForm({ ...form, message: e.target.value })} multiline minRows={4} maxRows={10} />
          {isAdmin && <FormControlLabel control={<Switch checked={form.geral} onChange={(e) => setForm({ ...form, geral: e.target.checked })} />} label={t("fields.geral")} />}
          <Stack direction="row" alignItems="center" spacing={1}>
            <AttachmentPicker
              testId="quick-message"
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
