import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Stack, TextField, MenuItem } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactMergeConflict, ContactMergeCounts, DuplicateContact } from "@atende/shared/contracts/http/contact-merge";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import { ContactPicker } from "../../../../components/ui/contact-picker";
import { ApiError } from "../../../../lib/api-client";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { mergeContacts, mergeKeys, useMergeContacts } from "../api/contact-merge";

type Someone = Pick<DuplicateContact, "id" | "name" | "number">;
const COUNT_ORDER: (keyof ContactMergeCounts)[] = ["tickets", "messages", "notes", "tags", "extraInfo", "schedules", "listMemberships", "optOuts", "lgpdRecords", "identities"];

/**
 * "Mesclar" (issue 34 point 5): choose the contact to keep (one of `choices`, or any contact by search), see what
 * would move (the dry run's counts), then confirm. The merged contact is deleted; nothing moves before the confirm.
 */
export function MergeDialog({ from, choices, onClose, onMerged }: { from: Someone; choices?: Someone[]; onClose: () => void; onMerged?: () => void }) {
  const { t } = useTranslation("contactMerge");
  const [into, setInto] = useState<Someone | null>(choices?.length === 1 ? choices[0]! : null);
  const [picked, setPicked] = useState<ContactView | null>(null);
  const dry = useQuery({
    queryKey: mergeKeys.dryRun(from.id, into?.id),
    queryFn: () => mergeContacts(from.id, into!.id, true),
    enabled: !!into && into.id !== from.id,
    retry: false,
    gcTime: 0,
    meta: { silentError: true },
  });
  const merge = useMergeContacts();
  const conflict = dry.error instanceof ApiError && dry.error.code === "ERR_MERGE_OPEN_TICKETS" ? (dry.error.data as ContactMergeConflict | undefined) : undefined;

  const confirm = () =>
    into &&
    merge.mutate(
      { fromId: from.id, intoId: into.id },
      {
        onSuccess: () => {
          toast.success(t("merged"));
          onMerged?.();
          onClose();
        },
        onError: toastError,
      },
    );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("mergeTitle", { name: from.name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {choices && choices.length > 1 ? (
            <TextField select label={t("pickInto")} value={into?.id ?? ""} onChange={(e) => setInto(choices.find((c) => c.id === Number(e.target.value)) ?? null)}>
              {choices.map((c) => (
                <MenuItem key={c.id} value={c.id}>
                  {c.name} - {c.number}
                </MenuItem>
              ))}
            </TextField>
          ) : !choices ? (
            <ContactPicker
              label={t("pickInto")}
              value={picked}
              onChange={(c) => {
                setPicked(c);
                setInto(c && c.id !== from.id ? c : null);
              }}
            />
          ) : null}
          {into && dry.isFetching && <CircularProgress size={24} />}
          {conflict?.close.map((c) => (
            <Alert severity="warning" key={c.ticketId}>
              {t("closeFirst", { ticketId: c.ticketId, keptTicketId: c.keptTicketId })}
            </Alert>
          ))}
          {dry.error && !conflict && <Alert severity="error">{t(`errors:${dry.error instanceof ApiError ? dry.error.code : "ERR_UNKNOWN"}`, { defaultValue: String(dry.error.message) })}</Alert>}
          {into && dry.data && (
            <>
              <Alert severity="info">{t("dryRunIntro", { from: from.name, into: into.name })}</Alert>
              <List dense data-testid="merge-counts">
                {COUNT_ORDER.map((k) => (
                  <ListItem key={k} disableGutters>
                    <ListItemText primary={t(`counts.${k}`)} secondary={String(dry.data.counts[k])} slotProps={{ secondary: { "data-testid": `merge-count-${k}` } as object }} />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" color="warning" disabled={!dry.data || merge.isPending} onClick={confirm}>
          {t("confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
