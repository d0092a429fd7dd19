import { Chip } from "@mui/material";
import { useTranslation } from "react-i18next";
import { ANNOUNCEMENT_PRIORITY_COLORS, type AnnouncementPriority } from "@atende/shared/domain/announcements/announcement";

/** Alta / Média / Baixa in the priority's colour (1 red, 2 orange, 3 grey). */
export function PriorityChip({ priority }: { priority: AnnouncementPriority }) {
  const { t } = useTranslation("announcements");
  const color = ANNOUNCEMENT_PRIORITY_COLORS[priority];
  return <Chip size="small" label={t(`priorities.${priority}`)} sx={{ bgcolor: color, color: "#fff" }} data-priority={priority} />;
}
