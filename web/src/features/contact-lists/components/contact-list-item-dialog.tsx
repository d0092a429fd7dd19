import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ContactListItemResponse } from "@atende/shared/contracts/http/contact-lists";
import { contactListItemSchema } from "@atende/shared/domain/contact-lists/contact-list";
import { toast } from "../../../lib/toast";
import { useSaveContactListItem } from "../api/contact-lists";
import { useZodForm } from "./use-zod-form";

/** Add or edit a list contact: name 2..50, number 8..50, optional valid email. */
export function ContactListItemDialog({ contactListId, record, onClose }: { contactListId: number; record: ContactListItemResponse | null; onClose: () => void }) {
  const { t } = useTranslation("contactLists");
  const form = useZodForm(contactListItemSchema, { name: record?.name ?? "", number: record?.number ?? "", email: record?.email ?? "" });
  const save = useSaveContactListItem(contactListId);
  const submit = () => {
    const input = form.submit();
    if (!input) return;
    save.mutate({ id: record?.id, input }, { onSuccess: () => (toast.success(t("items.saved")), onClose()) });
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{record ? t("items.edit") : t("items.add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t("items.fields.name")} {...form.bind("name")} required autoFocus />
          <TextField label={t("items.fields.number")} {...form.bind("number")} required placeholder="5511999999999" />
          <TextField label={t("items.fields.email")} {...form.bind("email")} type="email" />
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
