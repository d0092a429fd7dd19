import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/Check";
import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useSessionUser } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateQuickMessages, useDeleteQuickMessage, useQuickMessagesList } from "../api/quick-messages";
import { QuickMessageDialog } from "./quick-message-dialog";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";

/** Spec 3 section 6: admin and supervisor edit/delete every message; a user only their own non-general ones. */
export const canChangeQuickMessage = (user: Pick<SessionUser, "id" | "profile">, q: Pick<QuickMessageResponse, "userId" | "geral">) =>
  user.profile === "admin" || user.profile === "supervisor" || (q.userId === user.id && !q.geral);

/** /quick-messages: search, list (shortcode, attachment, general flag), add/edit dialog, delete confirmed first; live via `quickmessage`. */
export function QuickMessagesPage() {
  const { t } = useTranslation("quickMessages");
  const user = useSessionUser();
  const qc = useQueryClient();
  const { searchBox, query, rows: records, onScroll, editing, setEditing, deleting, setDeleting } = useListPage(useQuickMessagesList, "records");
  const remove = useDeleteQuickMessage();
  useRealtime("quickmessage", () => void invalidateQuickMessages(qc));

  return (
    <>
      <ListPage
        title={t("title")}
        search={{ ...searchBox, label: t("search") }}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("add")}
          </Button>
        }
        onScroll={onScroll}
        loading={query.isLoading || query.isFetchingNextPage}
      >
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.shortcode")}</TableCell>
              <TableCell>{t("fields.mediaName")}</TableCell>
              <TableCell align="center">{t("fields.geral")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((q) => (
              <TableRow key={q.id} hover data-testid="quick-message-row">
                <TableCell>{q.shortcode}</TableCell>
                <TableCell>{q.mediaName ?? t("noAttachment")}</TableCell>
                <TableCell align="center">{q.geral ? <CheckIcon fontSize="small" aria-label={t("fields.geral")} /> : null}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {canChangeQuickMessage(user, q) && (
                    <>
                      <EditDeleteActions onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} />
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && records.length === 0 && (
              <EmptyRow colSpan={4} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <QuickMessageDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog
        target={deleting}
        title={t("deleteConfirm.title", { shortcode: deleting?.shortcode ?? "" })}
        deletedText={t("deleted")}
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
