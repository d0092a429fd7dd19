import DescriptionIcon from "@mui/icons-material/Description";
import { Alert, Button, IconButton, Paper, Stack, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { api } from "../../../../lib/api-client";
import { toastError } from "../../../../lib/toast-error";
import { upsertMessage } from "../api/messages-list";
import { TemplatePicker } from "../../../../components/cloud-api/template-picker";

type Contact = { name?: string | null; number?: string | null; email?: string | null };

/** Sending a template into a ticket (POST /messages/{ticketId} with `template`), the picker open or closed. */
const useTemplateSend = (ticketId: number) => {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const send = async (template: TemplateSend) => {
    setBusy(true);
    try {
      const out = await api.post<MessageView[] | MessageView>(`/messages/${ticketId}`, { template, fromMe: true, read: true });
      for (const m of Array.isArray(out) ? out : [out]) if (m && typeof m === "object" && "id" in m) upsertMessage(qc, m);
      setOpen(false);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return { open, setOpen, busy, send };
};

/**
 * The composer of a Cloud API ticket whose 24-hour window has closed: free text is not allowed (the API refuses it
 * with ERR_WINDOW_CLOSED), only an approved template, chosen and filled in the picker.
 */
export function TemplatesOnlyComposer({ ticketId, whatsappId, contact }: { ticketId: number; whatsappId: number; contact?: Contact }) {
  const { t } = useTranslation("cloudApi");
  const s = useTemplateSend(ticketId);
  return (
    <Paper square sx={{ p: 1.5, borderTop: 1, borderColor: "divider" }} data-testid="composer-templates-only">
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} alignItems={{ sm: "center" }}>
        <Alert severity="warning" sx={{ flex: 1, py: 0 }}>
          {t("window.templatesOnly")}
        </Alert>
        <Button variant="contained" onClick={() => s.setOpen(true)} data-testid="composer-templates">
          {t("window.chooseTemplate")}
        </Button>
      </Stack>
      <TemplatePicker open={s.open} whatsappId={whatsappId} contact={contact} onClose={() => s.setOpen(false)} onSend={(tpl) => void s.send(tpl)} busy={s.busy} />
    </Paper>
  );
}

/** The composer's template button on a Cloud API ticket while the window is open (templates are always allowed). */
export function TemplateComposerButton({ ticketId, whatsappId, contact, disabled }: { ticketId: number; whatsappId: number; contact?: Contact; disabled?: boolean }) {
  const { t } = useTranslation("cloudApi");
  const s = useTemplateSend(ticketId);
  return (
    <>
      <Tooltip title={t("window.chooseTemplate")}>
        <span>
          <IconButton onClick={() => s.setOpen(true)} aria-label={t("window.chooseTemplate")} disabled={disabled} data-testid="composer-template-button">
            <DescriptionIcon />
          </IconButton>
        </span>
      </Tooltip>
      {s.open ? <TemplatePicker open whatsappId={whatsappId} contact={contact} onClose={() => s.setOpen(false)} onSend={(tpl) => void s.send(tpl)} busy={s.busy} /> : null}
    </>
  );
}
