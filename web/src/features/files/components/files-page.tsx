import AddIcon from "@mui/icons-material/Add";
import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateFileLists, useDeleteFileList, useFileLists } from "../api/file-lists";
import { FileListDialog } from "./file-list-dialog";

/** /files (admins): search, list with infinite scroll, add/edit dialog, delete confirmed first; live via `file`. */
export function FilesPage() {
  const { t } = useTranslation("files");
  const qc = useQueryClient();
  const { searchBox, query, rows: records, onScroll, editing, setEditing, deleting, setDeleting } = useListPage(useFileLists, "files");
  const remove = useDeleteFileList();
  useRealtime("file", () => void invalidateFileLists(qc));

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
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell align="center">{t("fields.files")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((f) => (
              <TableRow key={f.id} hover data-testid="file-list-row">
                <TableCell>{f.name}</TableCell>
                <TableCell align="center">{t("filesCount", { count: f.options.filter((o) => o.path).length })}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(f)} onDelete={() => setDeleting(f)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && records.length === 0 && (
              <EmptyRow colSpan={3} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <FileListDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
