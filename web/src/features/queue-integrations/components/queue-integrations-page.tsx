import AddIcon from "@mui/icons-material/Add";
import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { QueueIntegrationEventData, QueueIntegrationResponse } from "@atende/shared/contracts/http/queue-integrations";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useDebounced } from "../../../hooks/use-debounced";
import { useInfiniteQueryScroll } from "../../../hooks/use-infinite-scroll";
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
  const [deleting, setDeleting] = useState<QueueIntegrationResponse | null>(null);
  const onScroll = useInfiniteQueryScroll(query);
  useRealtime<QueueIntegrationEventData>("queueIntegration", (data) => applyQueueIntegrationEvent(qc, data));

  return (
    <>
      <ListPage
        title={t("title", { count: items.length })}
        search={{ value: text, onChange: setText, label: t("search") }}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true, record: null })}>
            {t("add")}
          </Button>
        }
        onScroll={onScroll}
        loading={query.isLoading || query.isFetchingNextPage}
      >
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 64 }}>{t("columns.type")}</TableCell>
              <TableCell sx={{ width: 80 }}>{t("columns.id")}</TableCell>
              <TableCell>{t("columns.name")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((i) => (
              <TableRow key={i.id} hover data-testid="integration-row">
                <TableCell>
                  <IntegrationTypeBadge type={i.type} />
                </TableCell>
                <TableCell>{i.id}</TableCell>
                <TableCell>{i.name}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setDialog({ open: true, record: i })} onDelete={() => setDeleting(i)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && items.length === 0 && (
              <EmptyRow colSpan={4} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      <QueueIntegrationDialog open={dialog.open} record={dialog.record} onClose={() => setDialog({ open: false, record: null })} />
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
