import AddIcon from "@mui/icons-material/Add";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/Delete";
import SaveIcon from "@mui/icons-material/Save";
import { Box, Button, Chip, IconButton, Paper, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueOptionResponse } from "@atende/shared/contracts/http/queues";
import { toast } from "../../../lib/toast";
import { useDeleteQueueOption, useQueueOptionMedia, useQueueOptions, useSaveQueueOption } from "../api/queues";

function OptionNode({ queueId, parentId, option, depth }: { queueId: number; parentId: number | null; option: QueueOptionResponse; depth: number }) {
  const { t } = useTranslation("queues");
  const [title, setTitle] = useState(option.title);
  const [message, setMessage] = useState(option.message);
  const [open, setOpen] = useState(false);
  const save = useSaveQueueOption(queueId, parentId);
  const remove = useDeleteQueueOption(queueId, parentId);
  const media = useQueueOptionMedia(queueId, parentId);
  const file = useRef<HTMLInputElement>(null);
  const dirty = title !== option.title || message !== option.message;
  return (
    <Paper variant="outlined" sx={{ p: 1, ml: depth ? 2 : 0 }} data-testid="queue-option">
      <Stack direction="row" spacing={1} alignItems="center">
        <Chip size="small" label={option.option} />
        <TextField size="small" label={t("options.title")} value={title} onChange={(e) => setTitle(e.target.value)} sx={{ flex: 1 }} />
        <Tooltip title={t("options.save")}>
          <span>
            <IconButton aria-label={t("options.save")} disabled={!dirty || !title.trim()} onClick={() => save.mutate({ id: option.id, title, message }, { onSuccess: () => toast.success(t("options.saved")) })}>
              <SaveIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t("options.attach")}>
          <IconButton aria-label={t("options.attach")} onClick={() => file.current?.click()}>
            <AttachFileIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t("common:delete")}>
          <IconButton aria-label={t("common:delete")} onClick={() => remove.mutate(option.id)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <input
          ref={file}
          type="file"
          hidden
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) media.mutate({ id: option.id, file: f });
            e.target.value = "";
          }}
        />
      </Stack>
      <TextField size="small" label={t("options.message")} value={message} onChange={(e) => setMessage(e.target.value)} fullWidth multiline minRows={1} sx={{ mt: 1 }} />
      {option.mediaName && (
        <Typography variant="caption" color="text.secondary">
          {t("options.media", { name: option.mediaName })}
        </Typography>
      )}
      <Box sx={{ mt: 1 }}>
        <Button size="small" onClick={() => setOpen((v) => !v)}>
          {open ? t("options.hideChildren") : t("options.showChildren")}
        </Button>
      </Box>
      {open && <OptionLevel queueId={queueId} parentId={option.id} depth={depth + 1} />}
    </Paper>
  );
}

/** One level of a queue's chatbot tree, with its nodes (each may open its own children) and an add button. */
export function OptionLevel({ queueId, parentId, depth = 0 }: { queueId: number; parentId: number | null; depth?: number }) {
  const { t } = useTranslation("queues");
  const list = useQueueOptions(queueId, parentId);
  const add = useSaveQueueOption(queueId, parentId);
  return (
    <Stack spacing={1} sx={{ mt: 1 }} data-testid={`options-level-${parentId ?? "top"}`}>
      {(list.data ?? []).map((o) => (
        <OptionNode key={o.id} queueId={queueId} parentId={parentId} option={o} depth={depth} />
      ))}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => add.mutate({ title: t("options.newTitle"), message: "" })}>
          {t("options.add")}
        </Button>
      </Box>
    </Stack>
  );
}
