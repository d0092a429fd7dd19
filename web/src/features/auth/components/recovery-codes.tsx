import { Alert, Box, Button, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { toast } from "../../../lib/toast";

/** The ten recovery codes, shown once: copy or download them now. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation("mfa");
  const text = codes.join("\n");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t("copied"));
    } catch {
      toast.error(t("copyFailed"));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "atende-recovery-codes.txt";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack spacing={1.5} data-testid="mfa-recovery-codes">
      <Alert severity="warning">{t("recoveryOnce")}</Alert>
      <Box component="ol" sx={{ columns: 2, fontFamily: "monospace", fontSize: "1rem", m: 0, pl: 3 }}>
        {codes.map((c) => (
          <Typography component="li" key={c} sx={{ fontFamily: "inherit" }} data-testid="mfa-recovery-code">
            {c}
          </Typography>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button size="small" onClick={() => void copy()}>
          {t("copy")}
        </Button>
        <Button size="small" onClick={download}>
          {t("download")}
        </Button>
      </Stack>
    </Stack>
  );
}
