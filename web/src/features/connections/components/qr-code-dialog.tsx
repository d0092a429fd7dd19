import { Box, Button, Dialog, DialogContent, DialogTitle, Divider, Stack, TextField, Typography } from "@mui/material";
import QRCode from "qrcode";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { pairingPhoneNumber } from "@atende/shared/domain/format/phone";
import { useRequestPairingCode } from "../api/whatsapps";

/**
 * The QR-code modal: four steps to link a phone and the live QR. Realtime `whatsappSession` updates refresh it
 * (through the connections cache); once a shown QR (or pairing code) becomes empty (paired, or gone), the modal
 * closes. Beside the QR: link by phone number, where the admin types the number and the phone enters the code shown.
 */
export function QrCodeDialog({ whatsapp, onClose }: { whatsapp: WhatsappResponse | undefined; onClose: () => void }) {
  const { t } = useTranslation("connections");
  const [image, setImage] = useState<string>("");
  const shown = useRef(false);
  const qr = whatsapp?.qrcode ?? "";
  const pairingCode = whatsapp?.pairingCode ?? "";
  const [number, setNumber] = useState("");
  const [numberError, setNumberError] = useState(false);
  const requestCode = useRequestPairingCode();

  useEffect(() => {
    if (qr) {
      shown.current = true;
      let live = true;
      void QRCode.toDataURL(qr, { margin: 1, width: 256 }).then((url) => live && setImage(url));
      return () => {
        live = false;
      };
    }
    if (pairingCode) {
      shown.current = true;
      return undefined;
    }
    if (shown.current) onClose();
    return undefined;
  }, [qr, pairingCode, onClose]);

  const askCode = () => {
    const digits = pairingPhoneNumber(number);
    setNumberError(!digits);
    if (digits && whatsapp) requestCode.mutate({ id: whatsapp.id, number: digits });
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" data-testid="qr-dialog">
      <DialogTitle>{t("qr.title", { name: whatsapp?.name ?? "" })}</DialogTitle>
      <DialogContent>
        <Stack direction={{ xs: "column", md: "row" }} spacing={3} alignItems="center">
          <Box component="ol" sx={{ pl: 2, m: 0 }}>
            {[1, 2, 3, 4].map((n) => (
              <Typography component="li" key={n} sx={{ mb: 1 }} data-testid="qr-step">
                {t(`qr.step${n}`)}
              </Typography>
            ))}
          </Box>
          <Box sx={{ width: 256, height: 256, display: "grid", placeItems: "center", bgcolor: "#fff", borderRadius: 1 }}>
            {qr && image ? <img src={image} alt={t("qr.alt")} width={256} height={256} data-testid="qr-image" data-qr={qr} /> : <Typography>{t("qr.waiting")}</Typography>}
          </Box>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <Box data-testid="pairing-section">
          <Typography variant="subtitle1" sx={{ mb: 1 }}>
            {t("pairing.title")}
          </Typography>
          {pairingCode ? (
            <Stack spacing={1} alignItems="flex-start">
              <Typography
                data-testid="pairing-code"
                data-code={pairingCode}
                sx={{ fontFamily: "monospace", fontSize: { xs: 32, md: 44 }, fontWeight: 700, letterSpacing: 6 }}
              >
                {`${pairingCode.slice(0, 4)}-${pairingCode.slice(4)}`}
              </Typography>
              <Box component="ol" sx={{ pl: 2, m: 0 }}>
                {[1, 2, 3, 4].map((n) => (
                  <Typography component="li" key={n} sx={{ mb: 0.5 }} data-testid="pairing-step">
                    {t(`pairing.step${n}`)}
                  </Typography>
                ))}
              </Box>
            </Stack>
          ) : (
            <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems="flex-start">
              <TextField
                size="small"
                label={t("pairing.number")}
                placeholder={t("pairing.numberExample")}
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                error={numberError}
                helperText={numberError ? t("pairing.invalidNumber") : t("pairing.numberHelp")}
                inputProps={{ "data-testid": "pairing-number", inputMode: "tel" }}
              />
              <Button variant="outlined" onClick={askCode} disabled={requestCode.isPending || !number.trim()} data-testid="request-pairing-code">
                {requestCode.isSuccess ? t("pairing.waiting") : t("pairing.request")}
              </Button>
            </Stack>
          )}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
