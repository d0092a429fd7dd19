import { Box, List, ListItemButton, ListItemText, Stack, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlowResponse } from "@atende/shared/contracts/http/flows";
import { fetchFlowVersion, flowKeys } from "../api/flows";
import { diffFlows } from "../model/doc";

/** Published versions, newest first; choosing one shows what changed from the version before it (nodes added/removed/changed). */
export function VersionsPanel({ flow }: { flow: FlowResponse }) {
  const { t, i18n } = useTranslation("flows");
  const [picked, setChosen] = useState<number | null>(null);
  // the newest version until one is picked (a publish adds one while the panel is open)
  const chosen = picked ?? flow.versions[0]?.version ?? null;
  const previous = chosen ? flow.versions.find((v) => v.version < chosen)?.version ?? null : null;
  const current = useQuery({ queryKey: flowKeys.version(flow.id, chosen ?? 0), queryFn: () => fetchFlowVersion(flow.id, chosen!), enabled: !!chosen });
  const before = useQuery({ queryKey: flowKeys.version(flow.id, previous ?? 0), queryFn: () => fetchFlowVersion(flow.id, previous!), enabled: !!previous });
  const diff = current.data ? diffFlows(before.data ?? { nodes: [], edges: [] }, current.data) : null;
  if (!flow.versions.length)
    return (
      <Typography sx={{ p: 2 }} color="text.secondary">
        {t("versions.none")}
      </Typography>
    );
  return (
    <Box sx={{ p: 1 }} data-testid="flow-versions">
      <List dense>
        {flow.versions.map((v) => (
          <ListItemButton key={v.version} selected={v.version === chosen} onClick={() => setChosen(v.version)}>
            <ListItemText primary={t("versions.version", { version: v.version })} secondary={new Date(v.publishedAt).toLocaleString(i18n.language)} />
          </ListItemButton>
        ))}
      </List>
      {diff && (
        <Stack spacing={0.5} sx={{ p: 1 }} data-testid="flow-version-diff">
          <Typography variant="subtitle2">{previous ? t("versions.diffFrom", { version: previous }) : t("versions.first")}</Typography>
          <Typography variant="body2" color="success.main">
            {t("versions.added", { count: diff.added.length })}
            {diff.added.length ? `: ${diff.added.join(", ")}` : ""}
          </Typography>
          <Typography variant="body2" color="error.main">
            {t("versions.removed", { count: diff.removed.length })}
            {diff.removed.length ? `: ${diff.removed.join(", ")}` : ""}
          </Typography>
          <Typography variant="body2" color="warning.main">
            {t("versions.changed", { count: diff.changed.length })}
            {diff.changed.length ? `: ${diff.changed.join(", ")}` : ""}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
