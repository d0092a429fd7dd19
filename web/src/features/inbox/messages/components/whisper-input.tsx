import RecordVoiceOverIcon from "@mui/icons-material/RecordVoiceOver";
import { Alert, Box, Button, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { WHISPER_MAX } from "@atende/shared/domain/messages/message";
import { can, watchesSilently } from "@atende/shared/domain/permissions/permissions";
import { useSessionUser } from "../../../../lib/session/session-context";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { useSendWhisper } from "../api/whispers";

/**
 * The whisper box under a conversation that is not the viewer's own (supervisors and admins, docs/adr/0102), with the
 * silent-monitoring note when they only watch. Mounted by the conversation view; it stands apart from the composer.
 */
export function WhisperInput({ ticket }: { ticket: Pick<TicketView, "id" | "userId" | "status"> }) {
  const { t } = useTranslation("supervisor");
  const user = useSessionUser();
  const [body, setBody] = useState("");
  const send = useSendWhisper();
  if (!can(user.profile, "tickets:whisper") || ticket.userId === user.id || ticket.status === "closed") return null;
  const watching = watchesSilently({ userId: user.id, profile: user.profile }, ticket);
  const submit = () => {
    const text = body.trim();
    if (!text) return;
    send.mutate(
      { ticketId: ticket.id, body: text },
      {
        onSuccess: () => {
          setBody("");
          toast.success(t("whisper.sent"));
        },
        onError: (e) => toastError(e),
      },
    );
  };
  return (
    <Box sx={{ px: 1, py: 0.75, borderTop: 1, borderColor: "divider", bgcolor: "#fffdf5" }} data-testid="whisper-input">
      {watching && (
        <Alert severity="info" sx={{ mb: 0.75, py: 0 }} data-testid="monitoring-note">
          {t("whisper.monitoring")}
        </Alert>
      )}
      <Stack direction="row" spacing={1} alignItems="center">
        <TextField
          size="small"
          fullWidth
          multiline
          maxRows={4}
          value={body}
          onChange={(e) => setBody(e.target.value.slice(0, WHISPER_MAX))}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder={t("whisper.placeholder")}
          slotProps={{ htmlInput: { "aria-label": t("whisper.label"), "data-testid": "whisper-text" } }}
        />
        <Button variant="outlined" color="warning" startIcon={<RecordVoiceOverIcon />} onClick={submit} disabled={!body.trim() || send.isPending} data-testid="whisper-send">
          {t("whisper.send")}
        </Button>
      </Stack>
    </Box>
  );
}
