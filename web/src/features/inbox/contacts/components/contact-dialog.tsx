import { zodResolver } from "@hookform/resolvers/zod";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, TextField, Typography } from "@mui/material";
import { useFieldArray, useForm } from "react-hook-form";
import type { z } from "zod";
import { useTranslation } from "react-i18next";
import type { ContactCreateResponse, ContactView } from "@atende/shared/contracts/http/contacts";
import { type ContactFormInput, contactFormSchema } from "@atende/shared/domain/contacts/contact";
import { fieldError } from "../../../../lib/form-error";
import { toast } from "../../../../lib/toast";
import { useSaveContact } from "../api/contacts";

type FormValues = z.input<typeof contactFormSchema>;

/** An empty required field reads as missing, so the schema answers 'Required' rather than 'Too Short!'. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** Add or edit a contact (spec 1 section 5: Too Short!, Too Long!, Required, Invalid email — translated). */
export function ContactDialog({ contact, initialNumber, onClose, onSaved }: { contact?: ContactView | null; initialNumber?: string; onClose: () => void; onSaved?: (c: ContactView) => void }) {
  const { t } = useTranslation("contacts");
  const save = useSaveContact();
  const { register, handleSubmit, control, formState } = useForm<FormValues, unknown, ContactFormInput>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: {
      name: contact?.name ?? "",
      number: contact?.number ?? initialNumber ?? "",
      email: contact?.email ?? "",
      extraInfo: contact?.extraInfo ?? [],
    },
  });
  const extra = useFieldArray({ control, name: "extraInfo" });
  const errors = formState.errors;

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: contact?.id, input },
      {
        onSuccess: (saved) => {
          const answer = saved as ContactCreateResponse;
          if (answer.invalido) {
            toast.error(t("dialog.invalidNumber"));
            return;
          }
          if (answer.alreadyExists) toast.warning(t("dialog.alreadyExists"));
          else toast.success(t("dialog.saved"));
          onSaved?.(answer.existingContact ?? saved);
          onClose();
        },
      },
    ),
  );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{contact ? t("dialog.editTitle") : t("dialog.addTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField label={t("fields.name")} fullWidth autoFocus {...register("name", { setValueAs: blankToUndefined })} error={!!errors.name} helperText={fieldError(errors.name)} />
              <TextField label={t("fields.number")} fullWidth placeholder="5511999999999" {...register("number", { setValueAs: blankToUndefined })} error={!!errors.number} helperText={fieldError(errors.number)} />
            </Stack>
            <TextField label={t("fields.email")} fullWidth {...register("email")} error={!!errors.email} helperText={fieldError(errors.email)} />
            <Typography variant="subtitle2">{t("fields.extraInfo")}</Typography>
            {extra.fields.map((field, i) => (
              <Stack direction="row" spacing={1} key={field.id} alignItems="flex-start">
                <TextField size="small" label={t("fields.extraName")} {...register(`extraInfo.${i}.name`)} error={!!errors.extraInfo?.[i]?.name} helperText={fieldError(errors.extraInfo?.[i]?.name)} />
                <TextField size="small" label={t("fields.extraValue")} fullWidth {...register(`extraInfo.${i}.value`)} />
                <IconButton aria-label={t("common:delete")} onClick={() => extra.remove(i)}>
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Button startIcon={<AddIcon />} onClick={() => extra.append({ name: "", value: "" })} sx={{ alignSelf: "flex-start" }}>
              {t("fields.addExtra")}
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common:cancel")}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t("common:save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
