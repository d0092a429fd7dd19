import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ContactListResponse } from "@atende/shared/contracts/http/contact-lists";
import { contactListSchema } from "@atende/shared/domain/contact-lists/contact-list";
import { toast } from "../../../lib/toast";
import { useSaveContactList } from "../api/contact-lists";
import { useZodForm } from "./use-zod-form";

/** Add or rename a contact list: name required, 2 to 50 characters. */
export function ContactListDialog({ record, onClose }: { record: ContactListResponse | null; onClose: () => void }) {
  const { t } = useTranslation("contactLists");
  const form = useZodForm(contactListSchema, { name: record?.name ?? "" });
  const save = useSaveContactList();
  const submit = () => {
    const input = form.submit();
    if (!input) return;
    save.mutate({ id: record?.id, input }, { onSuccess: () => (toast.success(t("saved")), onClose()) });
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t("fields.name")} {...form.bind("name")} required autoFocus onKeyDown={(e) => e.key === "Enter" && submit()} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
