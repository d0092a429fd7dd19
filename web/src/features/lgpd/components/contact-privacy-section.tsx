import { Alert, Box, Button, Chip, LinearProgress, Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LgpdJobEvent, LgpdJobView, OptOutView } from "@atende/shared/contracts/http/lgpd";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { downloadJob, exportContact, invalidateOptOuts, useClearOptOut, useContactOptOut, useEraseContact } from "../api/lgpd";

/**
 * The contact drawer's privacy block (admins): the opt-out state with "clear", "export data" (a ZIP now, or a
 * background job with progress and a download link) and "erase data" (LGPD erasure, confirmed first).
 */
export function ContactPrivacySection({ contactId, contactName, onErased }: { contactId: number; contactName: string; onErased?: () => void }) {
  const { t } = useTranslation("lgpd");
  const optOut = useContactOptOut(contactId);
  const clear = useClearOptOut();
  const erase = useEraseContact();
  const [job, setJob] = useState<LgpdJobView | null>(null);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const qc = useQueryClient();

  // a customer's "SAIR" (or another admin clearing it) shows at once
  useRealtime<{ action: string; optOut: OptOutView }>("optOut", () => void invalidateOptOuts(qc));

  useRealtime<LgpdJobEvent>("lgpd", (data) => {
    if (data.job.contactId !== contactId) return;
    setJob((current) => (current && current.id === data.job.id ? data.job : current));
    if (data.job.kind === "erase" && data.job.status === "done") onErased?.();
  });

  const startExport = async () => {
    setExporting(true);
    try {
      const answer = await exportContact(contactId);
      if (answer.kind === "job") setJob(answer.job);
      else toast.success(t("export.saved"));
    } catch (err) {
      toastError(err);
    } finally {
      setExporting(false);
    }
  };
  const confirmErase = () =>
    erase.mutate(contactId, {
      onSuccess: (answer) => {
        setConfirming(false);
        if ("job" in answer) setJob(answer.job);
        else {
          toast.success(t("erase.done"));
          onErased?.();
        }
      },
      onError: (err) => {
        setConfirming(false);
        toastError(err);
      },
    });

  return (
    <Box data-testid="contact-privacy">
      <Typography variant="subtitle2" gutterBottom>
        {t("drawer.title")}
      </Typography>
      <Stack spacing={1}>
        {optOut.data?.optedOut ? (
          <Alert
            severity="warning"
            data-testid="opt-out-state"
            action={
              <Button color="inherit" size="small" disabled={clear.isPending} onClick={() => clear.mutate(contactId, { onError: toastError })}>
                {t("drawer.clearOptOut")}
              </Button>
            }
          >
            {t("drawer.optedOut", { date: new Date(optOut.data.optOut?.optedOutAt ?? "").toLocaleString(), message: optOut.data.optOut?.message ?? "" })}
          </Alert>
        ) : (
          <Chip size="small" label={t("drawer.notOptedOut")} data-testid="opt-out-state" sx={{ alignSelf: "flex-start" }} />
        )}
        <Button variant="outlined" size="small" onClick={startExport} disabled={exporting}>
          {t("drawer.export")}
        </Button>
        <Button variant="outlined" size="small" color="error" onClick={() => setConfirming(true)} disabled={erase.isPending}>
          {t("drawer.erase")}
        </Button>
        {job && (
          <Box data-testid="lgpd-job">
            <Typography variant="caption">{t(`job.${job.kind}.${job.status}`)}</Typography>
            {job.status === "running" && <LinearProgress variant="determinate" value={job.progress} />}
            {job.kind === "export" && job.status === "done" && (
              <Button size="small" onClick={() => downloadJob(job).catch(toastError)}>
                {t("job.download")}
              </Button>
            )}
          </Box>
        )}
      </Stack>
      <ConfirmDialog open={confirming} title={t("erase.title")} onClose={() => setConfirming(false)} onConfirm={confirmErase} busy={erase.isPending}>
        {t("erase.body", { name: contactName })}
      </ConfirmDialog>
    </Box>
  );
}
