import AddIcon from "@mui/icons-material/Add";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateFileLists, useDeleteFileList, useFileLists } from "../api/file-lists";
import { FileListDialog } from "./file-list-dialog";

/** /files (admins): search, list with infinite scroll, add/edit dialog, delete confirmed first; live via `file`. */
export function FilesPage() {
  const { t } = useTranslation("files");
  const qc = useQueryClient();
  const { searchBox, query, rows: records, editing, setEditing } = useListPage(useFileLists, "files");
  const remove = useDeleteFileList();
  useRealtime("file", () => void invalidateFileLists(qc));

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
          { header: t("fields.name"), cell: (f) => f.name },
          { header: t("fields.files"), align: "center", cell: (f) => t("filesCount", { count: f.options.filter((o) => o.path).length }) },
        ]}
        rows={records}
        rowTestId="file-list-row"
        empty={t("empty")}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (f) => t("deleteConfirm.title", { name: f.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <FileListDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
