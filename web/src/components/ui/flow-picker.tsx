import { MenuItem, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { FlowListResponse } from "@atende/shared/contracts/http/flows";
import { api } from "../../lib/api-client";
import { pickerKeys } from "../../lib/query-keys";

/**
 * Issue 30: the flow a connection or a queue starts for a new conversation (published flows only; the one already
 * chosen stays listed). Used by the connection and queue dialogs; silent on error like the other pickers.
 */
export function FlowPicker({ value, onChange, enabled = true }: { value: number | null | undefined; onChange: (id: number | null) => void; enabled?: boolean }) {
  const { t } = useTranslation("flows");
  const flows = useQuery({ queryKey: pickerKeys.flows(), queryFn: () => api.get<FlowListResponse>("/flows"), enabled, staleTime: 60_000, meta: { silentError: true } });
  const items = (flows.data?.flows ?? []).filter((f) => f.publishedVersion !== null || f.id === value);
  return (
    <TextField select fullWidth label={t("connectionFlow")} value={value ?? ""} onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))} slotProps={{ htmlInput: { "data-testid": "field-flowId" } }}>
      <MenuItem value="">{t("noFlow")}</MenuItem>
      {items.map((f) => (
        <MenuItem key={f.id} value={f.id}>
          {f.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
