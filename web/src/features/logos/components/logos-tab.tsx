import { Alert, Button, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { LOGO_REDIRECT_MS } from "@atende/shared/constants/business";
import type { LogoUploadResponse } from "@atende/shared/contracts/http/settings";
import { LOGO_DESTINATIONS } from "@atende/shared/domain/settings/settings";
import { useSessionUser } from "../../../lib/session/session-context";
import { api } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";

const ALLOWED = /\.(png|ico|svg)$/i;

/** 'Logo' (operator): a file and a destination; PNG, ICO or SVG only. Non-operators are sent home after 500 ms. */
export function LogosTab() {
  const { t } = useTranslation("logos");
  const user = useSessionUser();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [ref, setRef] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (user.super) return;
    toast.error(t("noPermission"));
    const timer = setTimeout(() => navigate("/"), LOGO_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [user.super, navigate, t]);
  if (!user.super) return <Alert severity="error">{t("noPermission")}</Alert>;

  const upload = async () => {
    if (!file) return toast.error(t("chooseFile"));
    if (!ref) return toast.error(t("chooseDestination"));
    if (!ALLOWED.test(file.name)) return toast.error(t("onlyFormats"));
    const form = new FormData();
    form.append("file", file);
    setBusy(true);
    try {
      const res = await api.post<LogoUploadResponse>(`/settings/media-upload?ref=${encodeURIComponent(ref)}`, form);
      if (res.mensagem === "Arquivo Anexado") {
        toast.success(t("uploaded"));
        setTimeout(() => window.location.reload(), 800);
      }
    } catch {
      toast.error(t("onlyFormats"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 480 }}>
      <Button variant="outlined" component="label">
        {file ? file.name : t("pickFile")}
        <input hidden type="file" accept=".png,.ico,.svg,image/png,image/x-icon,image/svg+xml" data-testid="logo-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </Button>
      <TextField select size="small" label={t("destination")} value={ref} onChange={(e) => setRef(e.target.value)} data-testid="logo-destination">
        {LOGO_DESTINATIONS.map((d) => (
          <MenuItem key={d} value={d}>
            {t(`destinations.${d}`)}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="caption" color="text.secondary">
        {t("hint")}
      </Typography>
      <Button variant="contained" onClick={() => void upload()} loading={busy}>
        {t("upload")}
      </Button>
    </Stack>
  );
}
