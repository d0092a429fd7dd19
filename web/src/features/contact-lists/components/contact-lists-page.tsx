import AddIcon from "@mui/icons-material/Add";
import DownloadIcon from "@mui/icons-material/Download";
import PeopleIcon from "@mui/icons-material/People";
import { Button, IconButton, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { toastError } from "../../../lib/toast-error";
import { useListPage } from "../../../hooks/use-list-page";
import { downloadSampleSpreadsheet, invalidateContactLists, useContactLists, useDeleteContactList } from "../api/contact-lists";
import { ContactListDialog } from "./contact-list-dialog";

/** /contact-lists (admins, plan with campaigns): search, infinite scroll, add/edit, delete, sample, open items. */
export function ContactListsPage() {
  const { t } = useTranslation("contactLists");
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { searchBox, query, rows: records, editing, setEditing } = useListPage(useContactLists, "records");
  const remove = useDeleteContactList();
  useRealtime("ContactList", () => void invalidateContactLists(qc));

  return (
    <>
      <DataTable
        title={t("title")}
        search={{ ...searchBox, label: t("search") }}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("add")}
          </Button>
        }
        query={query}
        columns={[
          { header: t("fields.name"), cell: (l) => l.name },
          { header: t("fields.contactsCount"), align: "center", cell: (l) => l.contactsCount },
        ]}
        rows={records}
        rowTestId="contact-list-row"
        empty={t("empty")}
        actions={(l) => (
          <>
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
          </>
        )}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (l) => t("deleteConfirm.title", { name: l.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <ContactListDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
