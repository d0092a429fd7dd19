import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { OtherOpenTicketData } from "@atende/shared/contracts/http/tickets";
import { useIsAdmin, useSessionUser } from "../../../../lib/session/session-context";
import { ApiError } from "../../../../lib/api-client";
import { toastError } from "../../../../lib/toast-error";
import { ContactPicker } from "../../../../components/ui/contact-picker";
import { useConnections, useQueues } from "../../../../lib/pickers";
import { useCreateTicket } from "../api/ticket";

/**
 * New ticket (spec 1 sections 4, 5, 8): contact search, queue (required for non-admins: 'Selecione uma fila'),
 * connection; created open for the current user. If the contact already has an open ticket: another user's
 * ticket shows that user and queue, the user's own ticket simply opens.
 */
export function NewTicketDialog({ open, onClose, initialContact }: { open: boolean; onClose: () => void; initialContact?: ContactView | null }) {
  const { t } = useTranslation("tickets");
  const user = useSessionUser();
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const queues = useQueues();
  const connections = useConnections(open);
  const create = useCreateTicket();
  const [contact, setContact] = useState<ContactView | null>(initialContact ?? null);
  const [queueId, setQueueId] = useState<number | "">("");
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const [queueError, setQueueError] = useState(false);
  const [otherTicket, setOtherTicket] = useState<OtherOpenTicketData | null>(null);
  const queueOptions = isAdmin ? (queues.data ?? []) : user.queues;

  const close = () => {
    setContact(initialContact ?? null);
    setQueueId("");
    setWhatsappId("");
    setQueueError(false);
    setOtherTicket(null);
    onClose();
  };

  const submit = () => {
    if (!contact) return;
    if (queueId === "" && !isAdmin) {
      setQueueError(true);
      return;
    }
    create.mutate(
      { contactId: contact.id, queueId: queueId === "" ? null : queueId, whatsappId: whatsappId === "" ? null : whatsappId, userId: user.id, status: "open" },
      {
        onSuccess: (ticket) => {
          close();
          navigate(`/tickets/${ticket.uuid}`);
        },
        onError: (err) => {
          const existing = err instanceof ApiError && err.code === "ERR_OTHER_OPEN_TICKET" ? (err.data as OtherOpenTicketData | undefined) : undefined;
          if (existing?.uuid && existing.userId !== null && existing.userId !== user.id) setOtherTicket(existing);
          else if (existing?.uuid) {
            close();
            navigate(`/tickets/${existing.uuid}`);
          } else toastError(err);
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <DialogTitle>{t("newDialog.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ContactPicker value={contact} onChange={setContact} autoFocus />
          <TextField
            select
            label={t("newDialog.queue")}
            value={queueId}
            onChange={(e) => {
              setQueueId(e.target.value === "" ? "" : Number(e.target.value));
              setQueueError(false);
            }}
            error={queueError}
            helperText={queueError ? t("newDialog.selectQueue") : undefined}
            data-testid="new-ticket-queue"
          >
            {isAdmin && <MenuItem value="">{t("noQueue")}</MenuItem>}
            {queueOptions.map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField select label={t("newDialog.connection")} value={whatsappId} onChange={(e) => setWhatsappId(e.target.value === "" ? "" : Number(e.target.value))}>
            <MenuItem value="">{t("newDialog.defaultConnection")}</MenuItem>
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          {otherTicket && (
            <Alert severity="warning" data-testid="other-open-ticket">
              {t("newDialog.otherOpen", { user: otherTicket.user?.name ?? "-", queue: otherTicket.queue?.name ?? t("noQueue") })}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={!contact || create.isPending}>
          {t("newDialog.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
