import CampaignIcon from "@mui/icons-material/Campaign";
import { Badge, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnnouncementResponse } from "@atende/shared/contracts/http/announcements";
import { ANNOUNCEMENT_PRIORITY_COLORS } from "@atende/shared/domain/announcements/announcement";
import { formatShortDateTime } from "@atende/shared/domain/format/dates";
import { useRealtime } from "../../../lib/realtime";
import { useInfiniteQueryScroll } from "../../../hooks/use-infinite-scroll";
import { useMediaBlob } from "../../../hooks/use-media-blob";
import { invalidateAnnouncements, useAnnouncementsList } from "../api/announcements";

function AnnouncementImage({ url, alt }: { url: string; alt: string }) {
  const { url: src, inline, kind } = useMediaBlob(url);
  // only bytes that are really a raster image are shown (useMediaBlob sniffs them)
  return src && inline && kind === "image" ? <Box component="img" src={src} alt={alt} sx={{ maxWidth: "100%", maxHeight: 360, display: "block", mx: "auto", mb: 2 }} /> : null;
}

/** The announcement opened from the popover: full text and image. */
function AnnouncementView({ announcement, onClose }: { announcement: AnnouncementResponse; onClose: () => void }) {
  const { t } = useTranslation("announcements");
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle sx={{ borderLeft: 6, borderColor: ANNOUNCEMENT_PRIORITY_COLORS[announcement.priority] }}>{announcement.title}</DialogTitle>
      <DialogContent>
        {announcement.mediaUrl && <AnnouncementImage url={announcement.mediaUrl} alt={announcement.mediaName ?? announcement.title} />}
        <Typography sx={{ whiteSpace: "pre-wrap" }}>{announcement.text}</Typography>
        <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 2 }}>
          {formatShortDateTime(announcement.createdAt)}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Top-bar announcements (spec 1): newest first, priority colours, a click opens the full announcement; live. */
export function AnnouncementsPopover() {
  const { t } = useTranslation("announcements");
  const qc = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<AnnouncementResponse | null>(null);
  const query = useAnnouncementsList("");
  const records = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.records), [query.data]);
  const onScroll = useInfiniteQueryScroll(query);
  useRealtime("announcement", () => void invalidateAnnouncements(qc));

  return (
    <>
      <Tooltip title={t("popoverTitle")}>
        <IconButton color="inherit" aria-label={t("popoverTitle")} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={records.length} color="error" max={9}>
            <CampaignIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box sx={{ width: 340, maxHeight: 420, overflow: "auto" }} onScroll={onScroll} data-testid="announcements-popover">
          <Typography variant="subtitle1" sx={{ px: 2, pt: 1.5 }}>
            {t("popoverTitle")}
          </Typography>
          <List dense>
            {records.map((a) => (
              <ListItemButton
                key={a.id}
                data-testid="announcement-item"
                data-priority={a.priority}
                onClick={() => setOpen(a)}
                sx={{ borderLeft: 6, borderColor: ANNOUNCEMENT_PRIORITY_COLORS[a.priority], mb: 0.5 }}
              >
                <ListItemText
                  primary={a.title}
                  secondary={formatShortDateTime(a.createdAt)}
                  slotProps={{ primary: { noWrap: true, sx: { color: ANNOUNCEMENT_PRIORITY_COLORS[a.priority], fontWeight: 600 } } }}
                />
              </ListItemButton>
            ))}
            {!query.isLoading && records.length === 0 && (
              <Typography color="text.secondary" sx={{ px: 2, py: 1 }}>
                {t("noAnnouncements")}
              </Typography>
            )}
          </List>
        </Box>
      </Popover>
      {open && <AnnouncementView announcement={open} onClose={() => setOpen(null)} />}
    </>
  );
}
