import CheckIcon from "@mui/icons-material/Check";
import { Box, ButtonBase } from "@mui/material";
import { QUEUE_COLORS } from "@atende/shared/domain/queues/queues";

/** The fixed 49-colour palette (7 x 7); colours other queues use are still shown (the server refuses duplicates). */
export function ColorPalette({ value, onChange, label }: { value: string; onChange: (color: string) => void; label: string }) {
  return (
    <Box role="radiogroup" aria-label={label} sx={{ display: "grid", gridTemplateColumns: "repeat(7, 28px)", gap: 0.5 }}>
      {QUEUE_COLORS.map((color) => {
        const selected = value.toUpperCase() === color;
        return (
          <ButtonBase
            key={color}
            role="radio"
            aria-checked={selected}
            aria-label={color}
            onClick={() => onChange(color)}
            sx={{ width: 28, height: 28, borderRadius: 1, bgcolor: color, border: "1px solid", borderColor: "divider", color: "#fff" }}
          >
            {selected && <CheckIcon fontSize="small" sx={{ filter: "drop-shadow(0 0 1px #000)" }} />}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
