import CheckCircleIcon from "@mui/icons-material/SignalCellular4Bar";
import CropFreeIcon from "@mui/icons-material/CropFree";
import KeyIcon from "@mui/icons-material/Key";
import HourglassIcon from "@mui/icons-material/HourglassEmpty";
import NoInternetIcon from "@mui/icons-material/SignalCellularConnectedNoInternet0Bar";
import LostIcon from "@mui/icons-material/SignalCellularConnectedNoInternet2Bar";
import { Button, CircularProgress, Stack, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import type { SessionAction } from "../api/whatsapps";

/** The status icon with its tooltip (spec 1 "Connection tooltips": disconnected, waiting for QR, connected, timeout). */
export function ConnectionStatusIcon({ status, reason }: { status: WhatsappResponse["status"]; reason?: string | null }) {
  const { t } = useTranslation("connections");
  const [icon, tip] =
    status === "CONNECTED"
      ? [<CheckCircleIcon key="i" sx={{ color: "success.main" }} />, "connected"]
      : status === "qrcode"
        ? [<CropFreeIcon key="i" />, "qrcode"]
        : status === "DISCONNECTED"
          ? [<NoInternetIcon key="i" color="error" />, "disconnected"]
          : status === "OPENING"
            ? [<CircularProgress key="i" size={20} />, "opening"]
            : status === "PASSKEY_REQUIRED"
              ? [<KeyIcon key="i" color="warning" />, "passkey"]
            : status === "WAITING_CAPACITY"
              ? [<HourglassIcon key="i" color="warning" />, "waitingCapacity"]
              : [<LostIcon key="i" color="error" />, "timeout"];
  return (
    <Tooltip
      title={
        <span data-testid="status-tooltip">
          {t(`tooltips.${tip}.title`)}
          <br />
          {status === "DISCONNECTED" && reason ? t(`closeReasons.${reason}`, { defaultValue: t(`tooltips.${tip}.text`) }) : t(`tooltips.${tip}.text`)}
        </span>
      }
    >
      <span data-testid="connection-status" data-status={status} style={{ display: "inline-flex" }}>
        {icon}
      </span>
    </Tooltip>
  );
}

/** Session buttons per state (spec 2 section 4). */
export function SessionActions({ whatsapp, onQr, onAction, busy }: { whatsapp: WhatsappResponse; onQr: () => void; onAction: (a: SessionAction) => void; busy: boolean }) {
  const { t } = useTranslation("connections");
  const small = { size: "small" as const, variant: "outlined" as const, disabled: busy };
  switch (whatsapp.status) {
    case "qrcode":
      return (
        <Button {...small} variant="contained" onClick={onQr} data-testid="show-qr">
          {t("buttons.qrcode")}
        </Button>
      );
    case "DISCONNECTED":
    case "PASSKEY_REQUIRED":
      return (
        <Stack direction="row" spacing={1} justifyContent="center">
          <Button {...small} onClick={() => onAction("start")}>
            {t("buttons.tryAgain")}
          </Button>
          <Button {...small} color="secondary" onClick={() => onAction("newQr")}>
            {t("buttons.newQr")}
          </Button>
        </Stack>
      );
    case "CONNECTED":
    case "PAIRING":
    case "TIMEOUT":
    // every session host is full: it starts by itself when one has room; disconnecting withdraws it
    case "WAITING_CAPACITY":
      return (
        <Button {...small} color="secondary" onClick={() => onAction("disconnect")} data-testid="disconnect">
          {t("buttons.disconnect")}
        </Button>
      );
    case "OPENING":
      return (
        <Button size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />}>
          {t("buttons.connecting")}
        </Button>
      );
  }
}
