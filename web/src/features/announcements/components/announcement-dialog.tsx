import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, InputLabel, MenuItem, Select, Stack, Switch, TextField } from "@mui/material";
import { useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { AnnouncementResponse } from "@atende/shared/contracts/http/announcements";
import {
  ANNOUNCEMENT_PRIORITIES,
  type AnnouncementPriority,
  announcementSchema,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
  isAnnouncementImageName,
} from "@atende/shared/domain/announcements/announcement";
import { AttachmentPicker } from "../../../components/ui/attachment-picker";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { type AnnouncementForm, useAnnouncementMedia, useSaveAnnouncement } from "../api/announcements";

/** Add or edit an announcement: title and text (required), priority, active flag, one image (.png/.jpg/.jpeg). */
export function AnnouncementDialog({ record, onClose }: { record: AnnouncementResponse | null; onClose: () => void }) {
  const { t } = useTranslation("announcements");
  const [form, setForm] = useState<AnnouncementForm>({
    title: record?.title ?? "",
    text: record?.text ?? "",
    priority: record?.priority ?? DEFAULT_ANNOUNCEMENT_PRIORITY,
    status: record?.status ?? true,
  });
  const [touched, setTouched] = useState({ title: false, text: false });
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState(record?.mediaName ?? null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = useSaveAnnouncement();
  const media = useAnnouncementMedia();

  const parsed = announcementSchema.safeParse(form);
  const errorOf = (field: "title" | "text") => {
    if (!touched[field] || parsed.success) return undefined;
    const issue = parsed.error.issues.find((i) => i.path[0] === field);
    return issue ? fieldError({ type: "zod", message: issue.message } as FieldError) : undefined;
  };

  const submit = () => {
    setTouched({ title: true, text: true });
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

  const pickFile = (file: File | null) => {
    if (file && !isAnnouncementImageName(file.name)) {
      toast.error(t("imageTypes"));
      return;
    }
    setPendingFile(file);
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
            label={t("fields.title")}
            value={form.title}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
            onBlur={() => setTouched({ ...touched, title: true })}
            error={!!errorOf("title")}
            helperText={errorOf("title")}
            required
            autoFocus
          />
          <TextField
            label={t("fields.text")}
            value={form.text}
            onChange={(e) => setForm({ ...form, text: e.target.value })}
            onBlur={() => setTouched({ ...touched, text: true })}
            error={!!errorOf("text")}
            helperText={errorOf("text")}
            required
            multiline
            minRows={4}
            maxRows={10}
          />
          <Stack direction="row" spacing={2} alignItems="center">
            <FormControl sx={{ minWidth: 160 }}>
              <InputLabel id="announcement-priority">{t("fields.priority")}</InputLabel>
              <Select
                labelId="announcement-priority"
                label={t("fields.priority")}
                value={form.priority}
                onChange={(e) => setForm({ ...form, priority: Number(e.target.value) as AnnouncementPriority })}
              >
                {ANNOUNCEMENT_PRIORITIES.map((p) => (
                  <MenuItem key={p} value={p}>
                    {t(`priorities.${p}`)}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControlLabel control={<Switch checked={form.status} onChange={(e) => setForm({ ...form, status: e.target.checked })} />} label={t("fields.status")} />
          </Stack>
          <Stack direction="row" alignItems="center" spacing={1}>
            <AttachmentPicker
              testId="announcement"
              name={shownAttachment}
              onPick={pickFile}
              onRemove={() => setConfirmRemove(true)}
              attachLabel={t("attach")}
              removeLabel={t("removeAttachment")}
              accept=".png,.jpg,.jpeg,image/png,image/jpeg"
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
