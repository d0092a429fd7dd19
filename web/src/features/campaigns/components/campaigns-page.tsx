import AddIcon from "@mui/icons-material/Add";
import AssessmentIcon from "@mui/icons-material/Assessment";
import PauseCircleOutlineIcon from "@mui/icons-material/PauseCircleOutline";
import PlayCircleOutlineIcon from "@mui/icons-material/PlayCircleOutline";
import { Button, IconButton, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
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
  useRealtime("campaign", () => void invalidateCampaigns(qc));

  const run = (c: CampaignView, kind: "cancel" | "restart") =>
    action.mutate(
      { id: c.id, action: kind },
      { onSuccess: () => toast.success(t(kind === "cancel" ? "cancelled" : "restarted")), onError: (err) => toast.error(campaignErrorText(t, err)) },
    );

  return (
    <>
      <DataTable
        title={t("title")}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("add")}
          </Button>
        }
        query={query}
        columns={[
          { header: t("fields.name"), cell: (c) => c.name },
          { header: t("fields.status"), cell: (c) => t(statusKey(c.status)) },
          { header: t("fields.contactList"), cell: (c) => c.contactList?.name ?? t("notDefined") },
          { header: t("fields.whatsapp"), cell: (c) => c.whatsapp?.name ?? t("notDefined") },
          { header: t("fields.scheduledAt"), cell: (c) => (c.scheduledAt ? formatDateTime(c.scheduledAt, i18n.language) : t("noSchedule")) },
          { header: t("fields.completedAt"), cell: (c) => (c.completedAt ? formatDateTime(c.completedAt, i18n.language) : t("notCompleted")) },
        ]}
        rows={campaigns}
        rowTestId="campaign-row"
        empty={t("empty")}
        actions={(c) => (
          <>
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
          </>
        )}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (c) => t("deleteConfirm.title", { name: c.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <CampaignDialog record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
