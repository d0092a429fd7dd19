import { Box, Chip, Stack, Tooltip, Typography } from "@mui/material";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import type { FlowNodeStats } from "@atende/shared/contracts/http/flows";
import { DEFAULT_HANDLE, type FlowNodeType } from "@atende/shared/domain/flows/flow";
import type { DocNode, NodeIssues } from "../model/doc";
import { NODE_WIDTH } from "../model/layout";
import { issueText } from "../model/issue-text";

export type CanvasNodeData = {
  node: DocNode;
  handles: string[];
  issues?: NodeIssues;
  stats?: FlowNodeStats;
};
export type CanvasNode = Node<CanvasNodeData, "flow">;

const summary = (n: DocNode): string => {
  const d = n.data;
  if (typeof d.text === "string" && d.text) return d.text;
  if (n.type === "http" && typeof d.url === "string") return `${String(d.method ?? "GET")} ${d.url}`;
  if (n.type === "wait" && typeof d.seconds === "number") return `${d.seconds}s`;
  if (typeof d.caption === "string") return d.caption;
  return "";
};

const handleLabel = (n: DocNode, handle: string): string => {
  if (n.type === "menu" && Array.isArray(n.data.options)) {
    const o = (n.data.options as { id?: string; label?: string }[]).find((x) => x.id === handle);
    if (o) return o.label || o.id || handle;
  }
  return handle;
};

/** One node on the canvas: its type, a line of its content, its out-handles, its marks (errors red, warnings amber) and counts. */
export const FlowNodeView = memo(function FlowNodeView({ data, selected }: NodeProps<CanvasNode>) {
  const { t } = useTranslation("flows");
  const { node, handles, issues, stats } = data;
  const errors = [...(issues?.fields.length ? [t("fieldErrors", { count: issues.fields.length })] : []), ...(issues?.errors ?? []).map((i) => issueText(t, i))];
  const warnings = (issues?.warnings ?? []).map((i) => issueText(t, i));
  const border = errors.length ? "error.main" : warnings.length ? "warning.main" : selected ? "primary.main" : "divider";
  const type = node.type as FlowNodeType;
  return (
    <Box
      data-testid={`flow-node-${node.id}`}
      data-node-type={type}
      data-status={errors.length ? "error" : warnings.length ? "warning" : "ok"}
      sx={{ width: NODE_WIDTH, bgcolor: "background.paper", border: 2, borderColor: border, borderRadius: 1, p: 1, boxShadow: selected ? 3 : 0 }}
    >
      {type !== "start" && <Handle type="target" position={Position.Top} />}
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "center", justifyContent: "space-between" }}>
        <Typography variant="subtitle2">{t(`type.${type}`)}</Typography>
        {stats && (
          <Stack direction="row" spacing={0.25} data-testid={`flow-node-stats-${node.id}`}>
            <Tooltip title={t("stats.entered")}>
              <Chip size="small" label={stats.entered} color="info" />
            </Tooltip>
            <Tooltip title={t("stats.exited")}>
              <Chip size="small" label={stats.exited} color="success" />
            </Tooltip>
            <Tooltip title={t("stats.dropped")}>
              <Chip size="small" label={stats.dropped} color={stats.dropped ? "warning" : "default"} />
            </Tooltip>
          </Stack>
        )}
      </Stack>
      <Typography variant="body2" noWrap color="text.secondary">
        {summary(node) || "\u00a0"}
      </Typography>
      {errors.map((m, i) => (
        <Typography key={`e${i}`} variant="caption" color="error" display="block" data-testid="flow-node-error">
          {m}
        </Typography>
      ))}
      {warnings.map((m, i) => (
        <Typography key={`w${i}`} variant="caption" color="warning.main" display="block" data-testid="flow-node-warning">
          {m}
        </Typography>
      ))}
      {handles.length > 0 && (
        <Box sx={{ display: "flex", justifyContent: "space-around", mt: 0.5, gap: 0.5 }}>
          {handles.map((h) => (
            <Box key={h} sx={{ position: "relative", flex: 1, textAlign: "center" }}>
              {h !== DEFAULT_HANDLE && (
                <Typography variant="caption" noWrap sx={{ display: "block", fontSize: 10 }}>
                  {h === DEFAULT_HANDLE ? "" : t(`handle.${h}`, { defaultValue: handleLabel(node, h) })}
                </Typography>
              )}
              <Handle id={h} type="source" position={Position.Bottom} data-testid={`handle-${node.id}-${h}`} style={{ position: "relative", left: "50%", transform: "translateX(-50%)", top: 6 }} />
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
});
