import AddIcon from "@mui/icons-material/Add";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { TagView } from "@atende/shared/contracts/http/tags";
import { can } from "@atende/shared/domain/permissions/permissions";
import { DataTable } from "../../../components/ui/data-table";
import { useSessionUser } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateTags, useDeleteTag, useTagsList } from "../api/tags";
import { TagChip } from "../../../components/ui/tag-chip";
import { TagDialog } from "./tag-dialog";

/** Kanban tags are the board's lanes: only admin and supervisor change them (the server enforces the same). */
export const canChangeTag = (user: Pick<SessionUser, "profile">, tag: Pick<TagView, "kanban">) => tag.kanban !== 1 || can(user.profile, "kanban:switch");

/** /tags: search (500 ms, lower-cased), list (chip, tickets count), add/edit dialog, delete confirmed; live via `tag`. */
export function TagsPage() {
  const { t } = useTranslation("tags");
  const user = useSessionUser();
  const qc = useQueryClient();
  const { searchBox, query, rows: tags, editing, setEditing } = useListPage(useTagsList, "tags");
  const remove = useDeleteTag();
  useRealtime("tag", () => void invalidateTags(qc));

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
        scrollTestId="tags-scroll"
        query={query}
        columns={[
          { header: t("fields.name"), cell: (tag) => <TagChip name={tag.name} color={tag.color} /> },
          { header: t("fields.ticketsCount"), align: "center", cell: (tag) => tag.ticketsCount },
        ]}
        rows={tags}
        rowTestId="tag-row"
        empty={t("empty")}
        onEdit={setEditing}
        canEdit={(tag) => canChangeTag(user, tag)}
        remove={{ mutation: remove, title: (tag) => t("deleteConfirm.title", { name: tag.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
        canDelete={(tag) => canChangeTag(user, tag)}
      />
      {editing && <TagDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
