import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/CheckCircle";
import RestartIcon from "@mui/icons-material/RestartAlt";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WhatsappEvent, WhatsappResponse, WhatsappSessionEvent } from "@atende/shared/contracts/http/whatsapps";
import { formatShortDateTime } from "@atende/shared/domain/format/dates";
import { formatPhone } from "@atende/shared/domain/format/phone";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { DataTable } from "../../../components/ui/data-table";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { putWhatsappInCache, removeWhatsappFromCache, useDeleteWhatsapp, useRestartWhatsapps, useSessionAction } from "../api/whatsapps";
import { useWhatsapps } from "../../../lib/pickers";
import { ConnectionStatusIcon, SessionActions } from "./connection-status";
import { PasskeyRequiredNotice } from "./passkey-required-notice";
import { QrCodeDialog } from "./qr-code-dialog";
import { WhatsappDialog } from "./whatsapp-dialog";
import { ChannelIcon } from "../../../components/channels/channel-icon";
import { channelOfProvider, isChannelProvider } from "@atende/shared/domain/channels/channel-providers";

/** /connections: name, number, status, session actions, last update, default flag, edit/delete; add; restart. */
export function ConnectionsPage() {
  const { t } = useTranslation("connections");
  const qc = useQueryClient();
  const whatsapps = useWhatsapps();
  const remove = useDeleteWhatsapp();
  const session = useSessionAction();
  const restart = useRestartWhatsapps();
  const [editing, setEditing] = useState<WhatsappResponse | "new" | null>(null);
  const [disconnecting, setDisconnecting] = useState<WhatsappResponse | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const closeQr = useCallback(() => setQrFor(null), []);

  useRealtime<WhatsappSessionEvent>("whatsappSession", (data) => data.action === "update" && putWhatsappInCache(qc, data.session));
  useRealtime<WhatsappEvent>("whatsapp", (data) => (data.action === "update" ? putWhatsappInCache(qc, data.whatsapp) : removeWhatsappFromCache(qc, data.whatsappId)));

  const list = whatsapps.data ?? [];
  const act = (w: WhatsappResponse, action: "start" | "newQr" | "disconnect") => {
    if (action === "disconnect") return setDisconnecting(w);
    session.mutate({ id: w.id, action }, { onSuccess: () => action === "newQr" && setQrFor(w.id) });
  };

  return (
    <>
      <PasskeyRequiredNotice whatsapps={list} />
      <DataTable
        layout="flow"
        title={t("title")}
        toolbar={
          <>
            <Button
              variant="outlined"
              startIcon={<RestartIcon />}
              disabled={restart.isPending}
              onClick={() => {
                toast.warning(t("restarting"));
                restart.mutate();
              }}
              data-testid="restart-connections"
            >
              {t("restart")}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")} data-testid="add-connection">
              {t("add")}
            </Button>
          </>
        }
        panelSx={{ overflowX: "auto" }}
        columns={[
          {
            header: t("columns.name"),
            cell: (w) => (
              <>
                <ChannelIcon channel={channelOfProvider(w.provider)} fontSize="small" sx={{ mr: 1, verticalAlign: "middle" }} />
                {w.name}
              </>
            ),
          },
          // another channel's "number" is its handle there (a bot's @username), shown as it is
          { header: t("columns.number"), testId: "connection-number", cell: (w) => (w.number ? (isChannelProvider(w.provider) ? w.number : formatPhone(w.number)) : "-") },
          { header: t("columns.status"), align: "center", cell: (w) => <ConnectionStatusIcon status={w.status} reason={w.disconnectReason} /> },
          {
            header: t("columns.session"),
            align: "center",
            cell: (w) => <SessionActions whatsapp={w} busy={session.isPending} onQr={() => setQrFor(w.id)} onAction={(a) => act(w, a)} />,
          },
          { header: t("columns.lastUpdate"), align: "center", cell: (w) => formatShortDateTime(w.updatedAt) },
          {
            header: t("columns.default"),
            align: "center",
            cell: (w) => w.isDefault && <CheckIcon color="success" fontSize="small" data-testid="default-flag" aria-label={t("columns.default")} />,
          },
        ]}
        rows={list}
        rowTestId="connection-row"
        rowProps={(w) => ({ "data-name": w.name })}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (w) => t("deleteConfirm.title", { name: w.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <WhatsappDialog whatsapp={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {qrFor !== null && <QrCodeDialog whatsapp={list.find((w) => w.id === qrFor)} onClose={closeQr} />}
      <ConfirmDialog
        open={!!disconnecting}
        title={t("disconnectConfirm.title")}
        busy={session.isPending}
        onClose={() => setDisconnecting(null)}
        onConfirm={() => disconnecting && session.mutate({ id: disconnecting.id, action: "disconnect" }, { onSettled: () => setDisconnecting(null) })}
      >
        {t("disconnectConfirm.text")}
      </ConfirmDialog>
    </>
  );
}
