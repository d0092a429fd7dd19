import { Box, Dialog, DialogContent, DialogTitle, Stack, Typography } from "@mui/material";
import QRCode from "qrcode";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";

/**
 * The QR-code modal: four steps to link a phone and the live QR. Realtime `whatsappSession` updates refresh it
 * (through the connections cache); once a shown QR becomes empty (paired, or gone), the modal closes.
 */
export function QrCodeDialog({ whatsapp, onClose }: { whatsapp: WhatsappResponse | undefined; onClose: () => void }) {
  const { t } = useTranslation("connections");
  const [image, setImage] = useState<string>("");
  const shown = useRef(false);
  const qr = whatsapp?.qrcode ?? "";

  useEffect(() => {
    if (qr) {
      shown.current = true;
      let live = true;
      void QRCode.toDataURL(qr, { margin: 1, width: 256 }).then((url) => live && setImage(url));
      return () => {
        live = false;
      };
    }
    if (shown.current) onClose();
    return undefined;
  }, [qr, onClose]);

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
      </DialogContent>
    </Dialog>
  );
}
