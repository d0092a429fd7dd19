import PlaceIcon from "@mui/icons-material/Place";
import { Box, Button, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { parseLocationBody } from "../../shared/message-parsers";

/** Location message: map image, description and a link opening the map in a new tab. */
export function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation("messages");
  const location = parseLocationBody(body);
  if (!location) return <Typography variant="body2">{body}</Typography>;
  return (
    <Box data-testid="location-card" sx={{ maxWidth: 260 }}>
      {location.imageUrl ? <Box component="img" src={location.imageUrl} alt={t("location.map")} sx={{ width: "100%", borderRadius: 1 }} /> : <PlaceIcon fontSize="large" />}
      {location.description && <Typography variant="body2">{location.description}</Typography>}
      {location.link && (
        <Button size="small" href={location.link} target="_blank" rel="noopener noreferrer" component="a">
          {t("location.open")}
        </Button>
      )}
    </Box>
  );
}
