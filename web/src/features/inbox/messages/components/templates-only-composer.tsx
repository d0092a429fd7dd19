import { Alert, Button, Paper, Stack } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { api } from "../../../../lib/api-client";
import { toastError } from "../../../../lib/toast-error";
import { upsertMessage } from "../api/messages-list";
import { TemplatePicker } from "../../../../components/cloud-api/template-picker";

/**
 * The composer of a Cloud API ticket whose 24-hour window has closed: free text is not allowed (the API refuses it
 * with ERR_WINDOW_CLOSED), only an approved template, chosen and filled in the picker.
 */
export function TemplatesOnlyComposer({ ticketId, whatsappId, contact }: { ticketId: number; whatsappId: number; contact?: { name?: string | null; number?: string | null; email?: string | null } }) {
  const { t } = useTranslation("cloudApi");
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const send = async (template: TemplateSend) => {
    setBusy(true);
    try {
      const out = await api.post<MessageView>(`/messages/${ticketId}`, { template, fromMe: true, read: true });
      if (out && typeof out === "object" && "id" in out) upsertMessage(qc, out);
      setOpen(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper square sx={{ p: 1.5, borderTop: 1, borderColor: "divider" }} data-testid="composer-templates-only">
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} alignItems={{ sm: "center" }}>
        <Alert severity="warning" sx={{ flex: 1, py: 0 }}>
          {t("window.templatesOnly")}
        </Alert>
        <Button variant="contained" onClick={() => setOpen(true)} data-testid="composer-templates">
          {t("window.chooseTemplate")}
        </Button>
      </Stack>
      <TemplatePicker open={open} whatsappId={whatsappId} contact={contact} onClose={() => setOpen(false)} onSend={(tpl) => void send(tpl)} busy={busy} />
    </Paper>
  );
}
