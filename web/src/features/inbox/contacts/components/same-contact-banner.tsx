import { Alert, Button, Stack } from "@mui/material";
import { useTranslation } from "react-i18next";
import { formatPhone } from "@atende/shared/domain/format/phone";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { useAnswerSameContact, useSameContact } from "../api/contact-merge";

/**
 * A website visitor whose typed phone or e-mail is a known contact's (issue 31 point 3; docs/adr/0104): the
 * attendant is asked; "yes" merges the visitor into the known contact, "no" keeps them apart. Never merged silently.
 */
export function SameContactBanner({ contactId }: { contactId: number }) {
  const { t } = useTranslation("contactMerge");
  const query = useSameContact(contactId, true);
  const answer = useAnswerSameContact(contactId);
  const candidate = query.data?.candidates[0];
  if (!candidate) return null;
  const reply = (same: boolean) =>
    answer.mutate({ otherId: candidate.id, same }, { onSuccess: () => same && toast.success(t("same.merged", { name: candidate.name })), onError: toastError });
  return (
    <Alert
      severity="info"
      data-testid="same-contact-banner"
      sx={{ borderRadius: 0 }}
      action={
        <Stack direction="row" spacing={1}>
          <Button color="inherit" size="small" disabled={answer.isPending} onClick={() => reply(true)}>
            {t("same.yes")}
          </Button>
          <Button color="inherit" size="small" disabled={answer.isPending} onClick={() => reply(false)}>
            {t("same.no")}
          </Button>
        </Stack>
      }
    >
      <strong>{t("same.title")}</strong>{" "}
      {t("same.text", { what: t(candidate.reason === "email" ? "same.email" : "same.phone"), name: candidate.name, number: formatPhone(candidate.number) || candidate.email })}
    </Alert>
  );
}
