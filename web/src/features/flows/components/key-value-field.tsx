import DeleteIcon from "@mui/icons-material/Delete";
import { Button, IconButton, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A record (`{ name: value }`) edited as rows; rows with an empty name are kept on screen but not in the value. */
export function KeyValueField({ label, value, onChange, keyHint, valueHint }: { label: string; value: Record<string, string> | undefined; onChange: (v: Record<string, string>) => void; keyHint?: string; valueHint?: string }) {
  const { t } = useTranslation("flows");
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(value ?? {}));
  const update = (next: [string, string][]) => {
    setRows(next);
    onChange(Object.fromEntries(next.filter(([k]) => k.trim() !== "")));
  };
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">{label}</Typography>
      {rows.map(([k, v], i) => (
        <Stack key={i} direction="row" spacing={1}>
          <TextField size="small" placeholder={keyHint} value={k} onChange={(e) => update(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} />
          <TextField size="small" placeholder={valueHint} value={v} onChange={(e) => update(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))} />
          <IconButton aria-label={t("remove")} size="small" onClick={() => update(rows.filter((_, j) => j !== i))}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      <Button size="small" onClick={() => update([...rows, ["", ""]])}>
        {t("addRow")}
      </Button>
    </Stack>
  );
}
