import AddIcon from "@mui/icons-material/Add";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { QueueIntegrationEventData, QueueIntegrationResponse } from "@atende/shared/contracts/http/queue-integrations";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { useDebounced } from "../../../hooks/use-debounced";
import { applyQueueIntegrationEvent, useDeleteQueueIntegration, useQueueIntegrationsList } from "../api/queue-integrations";
import { IntegrationTypeBadge } from "./integration-type-badge";
import { QueueIntegrationDialog } from "./queue-integration-dialog";

/**
 * /queue-integration (plan flag useIntegrations): title with the count of loaded items, search (500 ms, back to page 1),
 * table (type logo, id, name, actions), infinite scroll, add/edit dialog, delete confirmed; live via `queueIntegration`.
 */
export function QueueIntegrationsPage() {
  const { t } = useTranslation("queueIntegrations");
  const qc = useQueryClient();
  const [text, setText] = useState("");
  // spec 3 section 5: search text is lower-cased; a new term is a new query, so it starts again at page 1
  const search = useDebounced(text.trim().toLowerCase(), DEBOUNCE_SEARCH_MS);
  const query = useQueueIntegrationsList(search);
  const remove = useDeleteQueueIntegration();
  const items = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.queueIntegrations), [query.data]);
  const [dialog, setDialog] = useState<{ open: boolean; record: QueueIntegrationResponse | null }>({ open: false, record: null });
  useRealtime<QueueIntegrationEventData>("queueIntegration", (data) => applyQueueIntegrationEvent(qc, data));

  return (
    <>
      <DataTable
        title={t("title", { count: items.length })}
        search={{ value: text, onChange: setText, label: t("search") }}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
            {t("add")}
          </Button>
        }
        query={query}
        columns={[
          { header: t("columns.type"), headSx: { width: 64 }, cell: (i) => <IntegrationTypeBadge type={i.type} /> },
          { header: t("columns.id"), headSx: { width: 80 }, cell: (i) => i.id },
          { header: t("columns.name"), cell: (i) => i.name },
        ]}
        rows={items}
        rowTestId="integration-row"
        empty={t("empty")}
        onEdit={(i) => setDialog({ open: true, record: i })}
        remove={{ mutation: remove, title: (i) => t("deleteConfirm.title", { name: i.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      <QueueIntegrationDialog open={dialog.open} record={dialog.record} onClose={() => setDialog({ open: false, record: null })} />
    </>
  );
}
