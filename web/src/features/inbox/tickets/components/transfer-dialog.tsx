import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { useConnections, useQueues, useUsersList } from "../../../../lib/pickers";
import { useUpdateTicket } from "../api/ticket";

/** Transfer (spec 1 sections 4-5): a queue is required and a connection too; no user means pending with no owner. */
export function TransferDialog({ ticket, onClose }: { ticket: TicketView; onClose: () => void }) {
  const { t } = useTranslation("tickets");
  const navigate = useNavigate();
  const queues = useQueues();
  const users = useUsersList();
  const connections = useConnections();
  const update = useUpdateTicket();
  const [queueId, setQueueId] = useState<number | "">("");
  const [userId, setUserId] = useState<number | "">("");
  const [whatsappId, setWhatsappId] = useState<number | "">(ticket.whatsappId ?? "");
  const [tried, setTried] = useState(false);
  const usersOfQueue = (users.data ?? []).filter((u) => queueId === "" || u.queues.some((q) => q.id === queueId) || u.queueIds?.includes(queueId));

  const submit = () => {
    setTried(true);
    if (queueId === "" || whatsappId === "") return;
    update.mutate(
      { id: ticket.id, queueId, whatsappId, userId: userId === "" ? null : userId, status: userId === "" ? "pending" : "open" },
      {
        onSuccess: () => {
          onClose();
          navigate("/tickets");
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t("transfer.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            required
            label={t("transfer.queue")}
            value={queueId}
            onChange={(e) => {
              setQueueId(Number(e.target.value));
              setUserId("");
            }}
            error={tried && queueId === ""}
            helperText={tried && queueId === "" ? t("transfer.queueRequired") : undefined}
            data-testid="transfer-queue"
          >
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label={t("transfer.user")} value={userId} onChange={(e) => setUserId(e.target.value === "" ? "" : Number(e.target.value))} data-testid="transfer-user">
            <MenuItem value="">{t("transfer.noUser")}</MenuItem>
            {usersOfQueue.map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            required
            label={t("transfer.connection")}
            value={connections.data?.some((w) => w.id === whatsappId) ? whatsappId : ""}
            onChange={(e) => setWhatsappId(Number(e.target.value))}
            error={tried && whatsappId === ""}
            helperText={tried && whatsappId === "" ? t("transfer.connectionRequired") : undefined}
          >
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={update.isPending} data-testid="transfer-submit">
          {t("transfer.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
