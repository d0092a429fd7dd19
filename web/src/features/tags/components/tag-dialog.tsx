import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, Switch, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TagView } from "@atende/shared/contracts/http/tags";
import { can } from "@atende/shared/domain/permissions/permissions";
import { tagNameSchema } from "@atende/shared/domain/tags/tag";
import { useSessionUser } from "../../../lib/session/session-context";
import { toast } from "../../../lib/toast";
import { type TagForm, useSaveTag } from "../api/tags";

const DEFAULT_COLOR = "#A4CCCC";

/** Add or edit a tag: name (required, 3+), colour, and the kanban switch for admin and supervisor (spec 3 section 6). */
export function TagDialog({ record, onClose }: { record: TagView | null; onClose: () => void }) {
  const { t } = useTranslation("tags");
  const user = useSessionUser();
  const [form, setForm] = useState<TagForm>({ name: record?.name ?? "", color: record?.color ?? DEFAULT_COLOR, kanban: record?.kanban ?? 0 });
  const [touched, setTouched] = useState(false);
  const save = useSaveTag();

  const parsed = tagNameSchema.safeParse(form.name);
  const nameError = touched && !parsed.success ? t(`errors.${parsed.error.issues[0]?.message ?? "Required"}`, { defaultValue: parsed.error.issues[0]?.message }) : undefined;

  const submit = () => {
    setTouched(true);
    if (!parsed.success) return;
    save.mutate(
      { id: record?.id, input: { ...form, name: parsed.data } },
      {
        onSuccess: () => {
          toast.success(t("saved"));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t("fields.name")}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            onBlur={() => setTouched(true)}
            error={!!nameError}
            helperText={nameError}
            required
            autoFocus
          />
          <Stack direction="row" spacing={1} alignItems="center">
            <TextField
              label={t("fields.color")}
              type="color"
              value={form.color}
              onChange={(e) => setForm({ ...form, color: e.target.value })}
              sx={{ width: 120 }}
              inputProps={{ "data-testid": "tag-color" }}
            />
            <Box aria-hidden sx={{ width: 32, height: 32, borderRadius: 1, bgcolor: form.color, border: 1, borderColor: "divider" }} />
          </Stack>
          {can(user.profile, "kanban:switch") && (
            <FormControlLabel
              control={<Switch checked={form.kanban === 1} onChange={(e) => setForm({ ...form, kanban: e.target.checked ? 1 : 0 })} />}
              label={t("fields.kanban")}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
