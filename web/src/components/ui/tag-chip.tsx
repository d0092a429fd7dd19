import { Chip } from "@mui/material";

/** Readable text on the tag's colour: dark text on light colours, white on dark ones (#rgb and #rrggbb; others white). */
export const textOn = (color: string): string => {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "#fff";
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 160 ? "rgba(0,0,0,0.87)" : "#fff";
};

/** A tag's name on a chip in the tag's colour. */
export function TagChip({ name, color, size = "small" }: { name: string; color: string; size?: "small" | "medium" }) {
  return <Chip label={name} size={size} sx={{ bgcolor: color, color: textOn(color), fontWeight: 500 }} />;
}
