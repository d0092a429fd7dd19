import AddIcon from "@mui/icons-material/Add";
import { Button, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { TagView } from "@atende/shared/contracts/http/tags";
import { can } from "@atende/shared/domain/permissions/permissions";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { useSessionUser } from "../../../lib/session/session-context";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
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
  const { searchBox, query, rows: tags, onScroll, editing, setEditing, deleting, setDeleting } = useListPage(useTagsList, "tags");
  const remove = useDeleteTag();
  useRealtime("tag", () => void invalidateTags(qc));

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
        scrollTestId="tags-scroll"
      >
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell align="center">{t("fields.ticketsCount")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {tags.map((tag) => (
              <TableRow key={tag.id} hover data-testid="tag-row">
                <TableCell>
                  <TagChip name={tag.name} color={tag.color} />
                </TableCell>
                <TableCell align="center">{tag.ticketsCount}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {canChangeTag(user, tag) && <EditDeleteActions onEdit={() => setEditing(tag)} onDelete={() => setDeleting(tag)} />}
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && tags.length === 0 && (
              <EmptyRow colSpan={3} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <TagDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
