import { Alert, AlertTitle } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";

/**
 * WhatsApp asked a number for a passkey while linking (status PASSKEY_REQUIRED, docs/adr/0076): what happened and
 * what the number's owner can do, shown above the list while any connection is in that state.
 */
export function PasskeyRequiredNotice({ whatsapps }: { whatsapps: WhatsappResponse[] }) {
  const { t } = useTranslation("connections");
  const walled = whatsapps.filter((w) => w.status === "PASSKEY_REQUIRED");
  if (walled.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="passkey-required">
      <AlertTitle>{t("passkey.title", { names: walled.map((w) => w.name).join(", ") })}</AlertTitle>
      {t("passkey.why")}
      <br />
      {t("passkey.whatToDo")}
      <ul style={{ margin: "4px 0 0", paddingLeft: 20 }}>
        <li>{t("passkey.cloudApi")}</li>
        <li>{t("passkey.retry")}</li>
        <li>{t("passkey.phone")}</li>
      </ul>
    </Alert>
  );
}
