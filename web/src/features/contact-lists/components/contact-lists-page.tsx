import AddIcon from "@mui/icons-material/Add";
import DownloadIcon from "@mui/icons-material/Download";
import PeopleIcon from "@mui/icons-material/People";
import { Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useRealtime } from "../../../lib/realtime";
import { toastError } from "../../../lib/toast-error";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useListPage } from "../../../hooks/use-list-page";
import { downloadSampleSpreadsheet, invalidateContactLists, useContactLists, useDeleteContactList } from "../api/contact-lists";
import { ContactListDialog } from "./contact-list-dialog";

/** /contact-lists (admins, plan with campaigns): search, infinite scroll, add/edit, delete, sample, open items. */
export function ContactListsPage() {
  const { t } = useTranslation("contactLists");
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { searchBox, query, rows: records, onScroll, editing, setEditing, deleting, setDeleting } = useListPage(useContactLists, "records");
  const remove = useDeleteContactList();
  useRealtime("ContactList", () => void invalidateContactLists(qc));

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
              <TableCell align="center">{t("fields.contactsCount")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((l) => (
              <TableRow key={l.id} hover data-testid="contact-list-row">
                <TableCell>{l.name}</TableCell>
                <TableCell align="center">{l.contactsCount}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("downloadSample")}>
                    <IconButton size="small" aria-label={t("downloadSample")} onClick={() => downloadSampleSpreadsheet().catch(toastError)}>
                      <DownloadIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("openItems")}>
                    <IconButton size="small" aria-label={t("openItems")} onClick={() => void navigate(`/contact-lists/${l.id}/contacts`)}>
                      <PeopleIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <EditDeleteActions onEdit={() => setEditing(l)} onDelete={() => setDeleting(l)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && records.length === 0 && (
              <EmptyRow colSpan={3} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <ContactListDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
