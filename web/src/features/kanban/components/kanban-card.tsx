import DriveFileMoveIcon from "@mui/icons-material/DriveFileMove";
import { Card, CardActionArea, CardContent, IconButton, Menu, MenuItem, Stack, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { formatPhone } from "@atende/shared/domain/format/phone";
import type { Lane } from "../kanban-rules";

export const TICKET_DRAG_TYPE = "application/x-atende-ticket";

/**
 * A ticket on the board: contact name and number, last message; opens /tickets/{uuid}. Draggable (HTML5) and, for
 * keyboard and screen-reader users, a "Move to" menu listing the other lanes.
 */
export function KanbanCard({ ticket, lanes, laneKey, onMove }: { ticket: TicketView; lanes: Lane[]; laneKey: string; onMove: (lane: Lane) => void }) {
  const { t } = useTranslation("kanban");
  const navigate = useNavigate();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const name = ticket.contact?.name ?? "";
  return (
    <Card
      variant="outlined"
      draggable
      data-testid="kanban-card"
      data-ticket-id={ticket.id}
      onDragStart={(e) => {
        e.dataTransfer.setData(TICKET_DRAG_TYPE, String(ticket.id));
        e.dataTransfer.setData("text/plain", String(ticket.id));
        e.dataTransfer.effectAllowed = "move";
      }}
      sx={{ cursor: "grab" }}
    >
      <Stack direction="row" alignItems="flex-start">
        <CardActionArea onClick={() => navigate(`/tickets/${ticket.uuid}`)} sx={{ flex: 1, minWidth: 0 }}>
          <CardContent sx={{ p: 1.25, "&:last-child": { pb: 1.25 } }}>
            <Typography variant="subtitle2" noWrap>
              {name}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="div" noWrap>
              {formatPhone(ticket.contact?.number ?? "")}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap title={ticket.lastMessage}>
              {ticket.lastMessage || "\u00a0"}
            </Typography>
          </CardContent>
        </CardActionArea>
        <Tooltip title={t("moveTo")}>
          <IconButton size="small" aria-label={t("moveCard", { name })} aria-haspopup="menu" onClick={(e) => setMenu(e.currentTarget)} sx={{ m: 0.5 }}>
            <DriveFileMoveIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
        {lanes
          .filter((lane) => lane.key !== laneKey)
          .map((lane) => (
            <MenuItem
              key={lane.key}
              onClick={() => {
                setMenu(null);
                onMove(lane);
              }}
            >
              {lane.tagId === null ? t("openLane") : lane.name}
            </MenuItem>
          ))}
      </Menu>
    </Card>
  );
}
