import { TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { MAX_CAPACITY } from "@atende/shared/contracts/http/service-levels";
import { useAgentCapacity, useSetCapacity } from "../api/agents";

/** User dialog (admins): the attendant's capacity; empty = the company's default (docs/adr/0032). Saved on leaving the field. */
export function CapacityField({ userId }: { userId: number }) {
  const { t } = useTranslation("serviceLevels");
  const agent = useAgentCapacity(userId);
  const set = useSetCapacity();
  if (agent.data === undefined) return null;
  const own = agent.data?.ownCapacity ?? null;
  return (
    <TextField
      key={String(own)}
      size="small"
      type="number"
      label={t("capacity.label")}
      placeholder={agent.data ? String(agent.data.capacity) : ""}
      helperText={t("capacity.hint")}
      defaultValue={own ?? ""}
      slotProps={{ htmlInput: { min: 1, max: MAX_CAPACITY, "data-testid": "user-capacity" } }}
      onBlur={(e) => {
        const raw = e.target.value.trim();
        const capacity = raw === "" ? null : Math.max(1, Math.min(MAX_CAPACITY, Math.round(Number(raw))));
        if (capacity !== own && (capacity === null || Number.isFinite(capacity))) set.mutate({ userId, capacity });
      }}
      sx={{ maxWidth: 260 }}
    />
  );
}
