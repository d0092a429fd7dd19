import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/Check";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { QuickMessageResponse } from "@atende/shared/contracts/http/quick-messages";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import { DataTable } from "../../../components/ui/data-table";
import { useSessionUser } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { useListPage } from "../../../hooks/use-list-page";
import { invalidateQuickMessages, useDeleteQuickMessage, useQuickMessagesList } from "../api/quick-messages";
import { QuickMessageDialog } from "./quick-message-dialog";

/** Spec 3 section 6: admin and supervisor edit/delete every message; a user only their own non-general ones. */
export const canChangeQuickMessage = (user: Pick<SessionUser, "id" | "profile">, q: Pick<QuickMessageResponse, "userId" | "geral">) =>
  user.profile === "admin" || user.profile === "supervisor" || (q.userId === user.id && !q.geral);

/** /quick-messages: search, list (shortcode, attachment, general flag), add/edit dialog, delete confirmed first; live via `quickmessage`. */
export function QuickMessagesPage() {
  const { t } = useTranslation("quickMessages");
  const user = useSessionUser();
  const qc = useQueryClient();
  const { searchBox, query, rows: records, editing, setEditing } = useListPage(useQuickMessagesList, "records");
  const remove = useDeleteQuickMessage();
  useRealtime("quickmessage", () => void invalidateQuickMessages(qc));
  const canChange = (q: QuickMessageResponse) => canChangeQuickMessage(user, q);

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
          { header: t("fields.shortcode"), cell: (q) => q.shortcode },
          { header: t("fields.mediaName"), cell: (q) => q.mediaName ?? t("noAttachment") },
          { header: t("fields.geral"), align: "center", cell: (q) => (q.geral ? <CheckIcon fontSize="small" aria-label={t("fields.geral")} /> : null) },
        ]}
        rows={records}
        rowTestId="quick-message-row"
        empty={t("empty")}
        onEdit={setEditing}
        canEdit={canChange}
        remove={{ mutation: remove, title: (q) => t("deleteConfirm.title", { shortcode: q.shortcode }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
        canDelete={canChange}
      />
      {editing && <QuickMessageDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
