import { Box, Typography } from "@mui/material";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** The otpauth:// URI as a QR code drawn in the browser (nothing leaves the page), and the secret as text. */
export function TotpQr({ otpauthUrl, secret }: { otpauthUrl: string; secret: string }) {
  const { t } = useTranslation("mfa");
  const [image, setImage] = useState("");
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(otpauthUrl, { margin: 1, width: 200 }).then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [otpauthUrl]);
  return (
    <Box sx={{ display: "flex", flexDirection: { xs: "column", sm: "row" }, gap: 2, alignItems: "center" }}>
      <Box sx={{ width: 200, height: 200, bgcolor: "#fff", borderRadius: 1, display: "grid", placeItems: "center", flexShrink: 0 }}>
        {image && <img src={image} alt={t("qrAlt")} width={200} height={200} data-testid="mfa-qr" />}
      </Box>
      <Box>
        <Typography variant="body2" gutterBottom>
          {t("scanHint")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("secretHint")}
        </Typography>
        <Typography component="code" sx={{ fontFamily: "monospace", fontSize: "1rem", wordBreak: "break-all", letterSpacing: 1 }} data-testid="mfa-secret" data-secret={secret}>
          {secret.match(/.{1,4}/g)?.join(" ")}
        </Typography>
      </Box>
    </Box>
  );
}
