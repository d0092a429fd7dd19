import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useDeleteQueue } from "../api/queues";
import { useQueueList } from "../../../lib/pickers";
import { queueKeys } from "../../../lib/query-keys";
import { QueueDialog } from "./queue-dialog";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";

/** /queues: id, name, colour, order, greeting; add, edit, delete (admins). */
export function QueuesPage() {
  const { t } = useTranslation("queues");
  const qc = useQueryClient();
  const queues = useQueueList();
  const remove = useDeleteQueue();
  const [editing, setEditing] = useState<QueueResponse | "new" | null>(null);
  const [deleting, setDeleting] = useState<QueueResponse | null>(null);
  useRealtime("queue", () => void qc.invalidateQueries({ queryKey: queueKeys.list() }));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
          {t("add")}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.id")}</TableCell>
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell>{t("fields.color")}</TableCell>
              <TableCell>{t("fields.orderQueue")}</TableCell>
              <TableCell>{t("fields.greetingMessage")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(queues.data ?? []).map((q) => (
              <TableRow key={q.id} hover data-testid="queue-row">
                <TableCell>{q.id}</TableCell>
                <TableCell>{q.name}</TableCell>
                <TableCell>
                  <Box sx={{ width: 60, height: 20, borderRadius: 1, bgcolor: q.color }} title={q.color} />
                </TableCell>
                <TableCell>{q.orderQueue ?? ""}</TableCell>
                <TableCell sx={{ maxWidth: 320, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{q.greetingMessage}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      {editing && <QueueDialog queue={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog
        target={deleting}
        title={t("deleteConfirm.title", { name: deleting?.name ?? "" })}
        deletedText={t("deleted")}
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </Box>
  );
}
