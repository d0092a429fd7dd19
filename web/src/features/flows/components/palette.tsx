import { Box, Button, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { FLOW_NODE_TYPES, type FlowNodeType } from "@atende/shared/domain/flows/flow";

export const DRAG_MIME = "application/x-atende-flow-node";

/** The node types: drag one onto the canvas (or click it to add it in the middle of the view). */
export function Palette({ onAdd, hasStart }: { onAdd: (type: FlowNodeType) => void; hasStart: boolean }) {
  const { t } = useTranslation("flows");
  return (
    <Box data-testid="flow-palette" sx={{ p: 1, display: "flex", flexDirection: "column", gap: 0.5, width: 150, borderRight: 1, borderColor: "divider", overflowY: "auto" }}>
      <Typography variant="caption" color="text.secondary">
        {t("palette")}
      </Typography>
      {FLOW_NODE_TYPES.filter((type) => type !== "start" || !hasStart).map((type) => (
        <Button
          key={type}
          size="small"
          variant="outlined"
          draggable
          data-testid={`palette-${type}`}
          onDragStart={(e) => {
            e.dataTransfer.setData(DRAG_MIME, type);
            e.dataTransfer.effectAllowed = "move";
          }}
          onClick={() => onAdd(type)}
          sx={{ justifyContent: "flex-start", cursor: "grab" }}
        >
          {t(`type.${type}`)}
        </Button>
      ))}
    </Box>
  );
}
