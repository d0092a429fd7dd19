import AddIcon from "@mui/icons-material/Add";
import { Button, Chip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateAnnouncements, useAnnouncementsList, useDeleteAnnouncement } from "../api/announcements";
import { AnnouncementDialog } from "./announcement-dialog";
import { PriorityChip } from "./priority-chip";

/** /announcements (super users; the route gate refuses the others): search, list, add/edit dialog, delete confirmed first. */
export function AnnouncementsPage() {
  const { t } = useTranslation("announcements");
  const qc = useQueryClient();
  const { searchBox, query, rows: records, editing, setEditing } = useListPage(useAnnouncementsList, "records");
  const remove = useDeleteAnnouncement();
  useRealtime("announcement", () => void invalidateAnnouncements(qc));

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
          { header: t("fields.title"), cell: (a) => a.title },
          { header: t("fields.priority"), align: "center", cell: (a) => <PriorityChip priority={a.priority} /> },
          { header: t("fields.mediaName"), align: "center", cell: (a) => a.mediaName ?? t("noAttachment") },
          {
            header: t("fields.status"),
            align: "center",
            cell: (a) => <Chip size="small" variant="outlined" color={a.status ? "success" : "default"} label={a.status ? t("active") : t("inactive")} />,
          },
        ]}
        rows={records}
        rowTestId="announcement-row"
        empty={t("empty")}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (a) => t("deleteConfirm.title", { title: a.title }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <AnnouncementDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
