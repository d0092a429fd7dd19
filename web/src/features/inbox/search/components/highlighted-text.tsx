import { Box } from "@mui/material";
import type { Segment } from "@atende/shared/domain/search/text-search";

/** A snippet's segments as text, the matches marked; never HTML (a customer's text is untrusted: React escapes it). */
export function HighlightedText({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.match ? (
          <Box component="mark" key={i} data-testid="search-match" sx={{ bgcolor: "warning.light", color: "inherit", px: 0.25, borderRadius: 0.5 }}>
            {s.text}
          </Box>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
