import AddIcon from "@mui/icons-material/Add";
import CheckIcon from "@mui/icons-material/CheckCircle";
import RestartIcon from "@mui/icons-material/RestartAlt";
import { Box, Button, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WhatsappEvent, WhatsappResponse, WhatsappSessionEvent } from "@atende/shared/contracts/http/whatsapps";
import { formatShortDateTime } from "@atende/shared/domain/format/dates";
import { formatPhone } from "@atende/shared/domain/format/phone";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { putWhatsappInCache, removeWhatsappFromCache, useDeleteWhatsapp, useRestartWhatsapps, useSessionAction } from "../api/whatsapps";
import { useWhatsapps } from "../../../lib/pickers";
import { ConnectionStatusIcon, SessionActions } from "./connection-status";
import { QrCodeDialog } from "./qr-code-dialog";
import { WhatsappDialog } from "./whatsapp-dialog";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";

/** /connections: name, number, status, session actions, last update, default flag, edit/delete; add; restart. */
export function ConnectionsPage() {
  const { t } = useTranslation("connections");
  const qc = useQueryClient();
  const whatsapps = useWhatsapps();
  const remove = useDeleteWhatsapp();
  const session = useSessionAction();
  const restart = useRestartWhatsapps();
  const [editing, setEditing] = useState<WhatsappResponse | "new" | null>(null);
  const [deleting, setDeleting] = useState<WhatsappResponse | null>(null);
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
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
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
      </Stack>
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("columns.name")}</TableCell>
              <TableCell>{t("columns.number")}</TableCell>
              <TableCell align="center">{t("columns.status")}</TableCell>
              <TableCell align="center">{t("columns.session")}</TableCell>
              <TableCell align="center">{t("columns.lastUpdate")}</TableCell>
              <TableCell align="center">{t("columns.default")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((w) => (
              <TableRow key={w.id} hover data-testid="connection-row" data-name={w.name}>
                <TableCell>{w.name}</TableCell>
                <TableCell data-testid="connection-number">{w.number ? formatPhone(w.number) : "-"}</TableCell>
                <TableCell align="center">
                  <ConnectionStatusIcon status={w.status} reason={w.disconnectReason} />
                </TableCell>
                <TableCell align="center">
                  <SessionActions whatsapp={w} busy={session.isPending} onQr={() => setQrFor(w.id)} onAction={(a) => act(w, a)} />
                </TableCell>
                <TableCell align="center">{formatShortDateTime(w.updatedAt)}</TableCell>
                <TableCell align="center">{w.isDefault && <CheckIcon color="success" fontSize="small" data-testid="default-flag" aria-label={t("columns.default")} />}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(w)} onDelete={() => setDeleting(w)} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
      {editing && <WhatsappDialog whatsapp={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {qrFor !== null && <QrCodeDialog whatsapp={list.find((w) => w.id === qrFor)} onClose={closeQr} />}
      <ConfirmDeleteDialog
        target={deleting}
        title={t("deleteConfirm.title", { name: deleting?.name ?? "" })}
        deletedText={t("deleted")}
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
      <ConfirmDialog
        open={!!disconnecting}
        title={t("disconnectConfirm.title")}
        busy={session.isPending}
        onClose={() => setDisconnecting(null)}
        onConfirm={() => disconnecting && session.mutate({ id: disconnecting.id, action: "disconnect" }, { onSettled: () => setDisconnecting(null) })}
      >
        {t("disconnectConfirm.text")}
      </ConfirmDialog>
    </Box>
  );
}
