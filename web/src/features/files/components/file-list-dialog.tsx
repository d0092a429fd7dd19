import AddIcon from "@mui/icons-material/Add";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/Delete";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { FileListResponse } from "@atende/shared/contracts/http/files";
import { fileListSchema, fileMediaTypeOf, MAX_FILE_LIST_OPTIONS } from "@atende/shared/domain/files/file-list";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { useSaveFileList, useUploadFileListFiles } from "../api/file-lists";

/** One option row while editing: `id` once saved, the stored file's name, or a file picked and not yet sent. */
type OptionRow = { key: string; id?: number; name: string; mediaName: string | null; file: File | null };
let rowSeq = 0;
const newRow = (over: Partial<OptionRow> = {}): OptionRow => ({ key: `row-${++rowSeq}`, name: "", mediaName: null, file: null, ...over });

/** Add or edit a file list: name (min 3), message (required), options each with a name and an uploaded file. */
export function FileListDialog({ record, onClose }: { record: FileListResponse | null; onClose: () => void }) {
  const { t } = useTranslation("files");
  const [name, setName] = useState(record?.name ?? "");
  const [message, setMessage] = useState(record?.message ?? "");
  const [rows, setRows] = useState<OptionRow[]>(() => record?.options.map((o) => newRow({ id: o.id, name: o.name, mediaName: o.mediaName })) ?? []);
  const [touched, setTouched] = useState({ name: false, message: false });
  const save = useSaveFileList();
  const upload = useUploadFileListFiles();

  const parsed = fileListSchema.safeParse({ name, message });
  const errorOf = (field: "name" | "message") => {
    if (!touched[field] || parsed.success) return undefined;
    const issue = parsed.error.issues.find((i) => i.path[0] === field);
    if (!issue) return undefined;
    // the spec's own message for a short name; the shared validation texts for the rest
    return t(`validation.${issue.message}`, { defaultValue: fieldError({ type: "zod", message: issue.message } as FieldError) });
  };
  const setRow = (key: string, change: Partial<OptionRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const submit = () => {
    setTouched({ name: true, message: true });
    if (!parsed.success) return;
    const options = rows.map((r) => ({ ...(r.id ? { id: r.id } : {}), name: r.name.trim() }));
    save.mutate(
      { id: record?.id, input: { name, message, options } },
      {
        onSuccess: async (saved) => {
          // the server keeps the options in the order sent
          const uploads = rows.flatMap((r, i) => (r.file && saved.options[i] ? [{ optionId: saved.options[i].id, name: r.name, file: r.file }] : []));
          if (uploads.length) await upload.mutateAsync({ id: saved.id, uploads });
          toast.success(t("saved"));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t("fields.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched({ ...touched, name: true })}
            error={!!errorOf("name")}
            helperText={errorOf("name")}
            required
            autoFocus
          />
          <TextField
            label={t("fields.message")}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            onBlur={() => setTouched({ ...touched, message: true })}
            error={!!errorOf("message")}
            helperText={errorOf("message")}
            required
            multiline
            minRows={3}
            maxRows={8}
          />
          <Typography variant="subtitle2">{t("fields.files")}</Typography>
          {rows.map((r, i) => (
            <Stack key={r.key} direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }} data-testid="file-option-row">
              <TextField size="small" label={t("fields.optionName")} value={r.name} onChange={(e) => setRow(r.key, { name: e.target.value })} sx={{ flex: 1 }} />
              <Button component="label" size="small" startIcon={<AttachFileIcon />}>
                {t("chooseFile")}
                <input
                  type="file"
                  hidden
                  data-testid={`file-option-input-${i}`}
                  onChange={(e) => {
                    const file = e.target.files?.[0] ?? null;
                    e.target.value = "";
                    if (file && !fileMediaTypeOf(file.name)) return toast.error(t("fileTypes"));
                    setRow(r.key, { file, ...(file && !r.name ? { name: file.name } : {}) });
                  }}
                />
              </Button>
              <Typography variant="body2" sx={{ width: 140, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} data-testid="file-option-file">
                {r.file?.name ?? r.mediaName ?? t("noFile")}
              </Typography>
              <Tooltip title={t("removeOption")}>
                <IconButton size="small" aria-label={t("removeOption")} onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </Stack>
          ))}
          <Button startIcon={<AddIcon />} onClick={() => setRows((all) => [...all, newRow()])} disabled={rows.length >= MAX_FILE_LIST_OPTIONS} sx={{ alignSelf: "flex-start" }}>
            {t("addOption")}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending || upload.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
