import AddIcon from "@mui/icons-material/Add";
import { Button, Chip, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateAnnouncements, useAnnouncementsList, useDeleteAnnouncement } from "../api/announcements";
import { AnnouncementDialog } from "./announcement-dialog";
import { PriorityChip } from "./priority-chip";

/** /announcements (super users; the route gate refuses the others): search, list, add/edit dialog, delete confirmed first. */
export function AnnouncementsPage() {
  const { t } = useTranslation("announcements");
  const qc = useQueryClient();
  const { searchBox, query, rows: records, onScroll, editing, setEditing, deleting, setDeleting } = useListPage(useAnnouncementsList, "records");
  const remove = useDeleteAnnouncement();
  useRealtime("announcement", () => void invalidateAnnouncements(qc));

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
              <TableCell>{t("fields.title")}</TableCell>
              <TableCell align="center">{t("fields.priority")}</TableCell>
              <TableCell align="center">{t("fields.mediaName")}</TableCell>
              <TableCell align="center">{t("fields.status")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((a) => (
              <TableRow key={a.id} hover data-testid="announcement-row">
                <TableCell>{a.title}</TableCell>
                <TableCell align="center">
                  <PriorityChip priority={a.priority} />
                </TableCell>
                <TableCell align="center">{a.mediaName ?? t("noAttachment")}</TableCell>
                <TableCell align="center">
                  <Chip size="small" variant="outlined" color={a.status ? "success" : "default"} label={a.status ? t("active") : t("inactive")} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(a)} onDelete={() => setDeleting(a)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && records.length === 0 && (
              <EmptyRow colSpan={5} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <AnnouncementDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { title: deleting?.title ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
