import AddIcon from "@mui/icons-material/Add";
import AssessmentIcon from "@mui/icons-material/Assessment";
import PauseCircleOutlineIcon from "@mui/icons-material/PauseCircleOutline";
import PlayCircleOutlineIcon from "@mui/icons-material/PlayCircleOutline";
import { Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import { EmptyRow, ListPage } from "../../../components/ui/list-page";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useInfiniteQueryScroll } from "../../../hooks/use-infinite-scroll";
import { invalidateCampaigns, useCampaignAction, useCampaignsList, useDeleteCampaign } from "../api/campaigns";
import { CampaignDialog } from "./campaign-dialog";
import { campaignErrorText } from "./campaign-error";
import { formatDateTime, statusKey } from "./campaign-status";

/** /campaigns: the list (name, status, list, connection, scheduled, completed), actions per status; live via `campaign`. */
export function CampaignsPage() {
  const { t, i18n } = useTranslation("campaigns");
  const qc = useQueryClient();
  const navigate = useNavigate();
  const query = useCampaignsList();
  const remove = useDeleteCampaign();
  const action = useCampaignAction();
  const campaigns = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.records), [query.data]);
  const [editing, setEditing] = useState<CampaignView | "new" | null>(null);
  const [deleting, setDeleting] = useState<CampaignView | null>(null);
  const onScroll = useInfiniteQueryScroll(query);
  useRealtime("campaign", () => void invalidateCampaigns(qc));

  const run = (c: CampaignView, kind: "cancel" | "restart") =>
    action.mutate(
      { id: c.id, action: kind },
      { onSuccess: () => toast.success(t(kind === "cancel" ? "cancelled" : "restarted")), onError: (err) => toast.error(campaignErrorText(t, err)) },
    );

  return (
    <>
      <ListPage
        title={t("title")}
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
              <TableCell>{t("fields.status")}</TableCell>
              <TableCell>{t("fields.contactList")}</TableCell>
              <TableCell>{t("fields.whatsapp")}</TableCell>
              <TableCell>{t("fields.scheduledAt")}</TableCell>
              <TableCell>{t("fields.completedAt")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {campaigns.map((c) => (
              <TableRow key={c.id} hover data-testid="campaign-row">
                <TableCell>{c.name}</TableCell>
                <TableCell>{t(statusKey(c.status))}</TableCell>
                <TableCell>{c.contactList?.name ?? t("notDefined")}</TableCell>
                <TableCell>{c.whatsapp?.name ?? t("notDefined")}</TableCell>
                <TableCell>{c.scheduledAt ? formatDateTime(c.scheduledAt, i18n.language) : t("noSchedule")}</TableCell>
                <TableCell>{c.completedAt ? formatDateTime(c.completedAt, i18n.language) : t("notCompleted")}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {c.status === "EM_ANDAMENTO" && (
                    <Tooltip title={t("cancel")}>
                      <IconButton size="small" aria-label={t("cancel")} onClick={() => run(c, "cancel")} disabled={action.isPending}>
                        <PauseCircleOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {c.status === "CANCELADA" && (
                    <Tooltip title={t("restart")}>
                      <IconButton size="small" aria-label={t("restart")} onClick={() => run(c, "restart")} disabled={action.isPending}>
                        <PlayCircleOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {c.status !== "INATIVA" && (
                    <Tooltip title={t("report")}>
                      <IconButton size="small" aria-label={t("report")} onClick={() => navigate(`/campaign/${c.id}/report`)}>
                        <AssessmentIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <EditDeleteActions onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />
                </TableCell>
              </TableRow>
            ))}
            {!query.isLoading && campaigns.length === 0 && (
              <EmptyRow colSpan={7} text={t("empty")} />
            )}
          </TableBody>
        </Table>
      </ListPage>
      {editing && <CampaignDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm.title", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </>
  );
}
