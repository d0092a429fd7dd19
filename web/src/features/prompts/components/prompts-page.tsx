import AddIcon from "@mui/icons-material/Add";
import { Box, Button, CircularProgress, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PromptEventData, PromptResponse } from "@atende/shared/contracts/http/prompts";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { applyPromptEvent, useDeletePrompt, usePrompts } from "../api/prompts";
import { PromptDialog } from "./prompt-dialog";

/** /prompts (plan flag useOpenAi): the company's AI prompts with their queue; add/edit dialog; delete confirmed; live via `prompt`. */
export function PromptsPage() {
  const { t } = useTranslation("prompts");
  const qc = useQueryClient();
  const query = usePrompts();
  const remove = useDeletePrompt();
  const [editing, setEditing] = useState<PromptResponse | "new" | null>(null);
  const [deleting, setDeleting] = useState<PromptResponse | null>(null);
  useRealtime<PromptEventData>("prompt", (data) => applyPromptEvent(qc, data));
  const prompts = query.data?.prompts ?? [];

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
          {t("add")}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ overflow: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell>{t("fields.queue")}</TableCell>
              <TableCell align="center">{t("fields.maxTokens")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {prompts.map((p) => (
              <TableRow key={p.id} hover data-testid="prompt-row">
                <TableCell>{p.name}</TableCell>
                <TableCell>{p.queue?.name ?? t("noQueue")}</TableCell>
                <TableCell align="center">{p.maxTokens}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && prompts.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>
                  <Typography color="text.secondary">{t("empty")}</Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
        {query.isLoading && (
          <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
      </Paper>
      {editing && <PromptDialog key={editing === "new" ? "new" : editing.id} record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </Box>
  );
}
