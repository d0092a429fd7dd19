import { Box, Card, CardActionArea, CardContent, CardMedia, Dialog, DialogContent, Grid, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { HelpResponse } from "@atende/shared/contracts/http/helps";
import { useHelps, videoId } from "../api/helps";

/** /helps: a grid of video cards (thumbnail, title, description); a click plays it in a modal; Escape closes it. */
export function HelpsPage() {
  const { t } = useTranslation("helps");
  const helps = useHelps();
  const [playing, setPlaying] = useState<HelpResponse | null>(null);
  const list = helps.data ?? [];
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title", { count: list.length })}
      </Typography>
      <Grid container spacing={2}>
        {list.map((h) => (
          <Grid key={h.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <Card data-testid="help-card">
              <CardActionArea onClick={() => setPlaying(h)}>
                <CardMedia component="img" height="160" image={`https://img.youtube.com/vi/${videoId(h.video)}/mqdefault.jpg`} alt={h.title} />
                <CardContent>
                  <Typography variant="subtitle1">{h.title}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {h.description}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
      {!helps.isLoading && list.length === 0 && <Typography color="text.secondary">{t("empty")}</Typography>}
      <Dialog open={!!playing} onClose={() => setPlaying(null)} maxWidth="md" fullWidth aria-label={playing?.title ?? ""}>
        <DialogContent sx={{ p: 0, aspectRatio: "16 / 9" }}>
          {playing && (
            <iframe
              title={playing.title}
              src={`https://www.youtube.com/embed/${videoId(playing.video)}?autoplay=1`}
              style={{ width: "100%", height: "100%", border: 0 }}
              allow="autoplay; encrypted-media; picture-in-picture"
              allowFullScreen
            />
          )}
        </DialogContent>
      </Dialog>
    </Box>
  );
}
