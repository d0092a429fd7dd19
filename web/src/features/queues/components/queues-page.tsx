import AddIcon from "@mui/icons-material/Add";
import { Box, Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { useDeleteQueue } from "../api/queues";
import { useQueueList } from "../../../lib/pickers";
import { queueKeys } from "../../../lib/query-keys";
import { QueueDialog } from "./queue-dialog";

/** /queues: id, name, colour, order, greeting; add, edit, delete (admins). */
export function QueuesPage() {
  const { t } = useTranslation("queues");
  const qc = useQueryClient();
  const queues = useQueueList();
  const remove = useDeleteQueue();
  const [editing, setEditing] = useState<QueueResponse | "new" | null>(null);
  useRealtime("queue", () => void qc.invalidateQueries({ queryKey: queueKeys.list() }));

  return (
    <>
      <DataTable
        layout="flow"
        title={t("title")}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("add")}
          </Button>
        }
        panelSx={{ overflowX: "auto" }}
        columns={[
          { header: t("fields.id"), cell: (q) => q.id },
          { header: t("fields.name"), cell: (q) => q.name },
          { header: t("fields.color"), cell: (q) => <Box sx={{ width: 60, height: 20, borderRadius: 1, bgcolor: q.color }} title={q.color} /> },
          { header: t("fields.orderQueue"), cell: (q) => q.orderQueue ?? "" },
          { header: t("fields.greetingMessage"), sx: { maxWidth: 320, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }, cell: (q) => q.greetingMessage },
        ]}
        rows={queues.data ?? []}
        rowTestId="queue-row"
        onEdit={setEditing}
        remove={{ mutation: remove, title: (q) => t("deleteConfirm.title", { name: q.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <QueueDialog queue={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
