import { Box, CircularProgress, Paper, Stack, TableCell, TableRow, TextField, Typography } from "@mui/material";
import type { ReactNode, UIEvent } from "react";

/**
 * The frame of a list page (tags, quick messages, file lists, campaigns ...): a title, an optional search box and
 * actions on one line, then a scrolling panel holding the table, with a spinner while a page loads.
 * Dialogs go next to it (they render in a portal).
 */
export function ListPage(props: {
  title: ReactNode;
  /** the search box: its text, how it changes, and its label (placeholder and accessible name) */
  search?: { value: string; onChange: (value: string) => void; label: string };
  actions?: ReactNode;
  onScroll?: (e: UIEvent<HTMLElement>) => void;
  loading?: boolean;
  scrollTestId?: string;
  children: ReactNode;
}) {
  const { search } = props;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", boxSizing: "border-box" }}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {props.title}
        </Typography>
        {search && (
          <TextField size="small" placeholder={search.label} value={search.value} onChange={(e) => search.onChange(e.target.value)} slotProps={{ htmlInput: { "aria-label": search.label } }} />
        )}
        {props.actions}
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, overflow: "auto" }} onScroll={props.onScroll} data-testid={props.scrollTestId}>
        {props.children}
        {props.loading && (
          <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
      </Paper>
    </Box>
  );
}

/** The one row of an empty table. */
export function EmptyRow({ colSpan, text }: { colSpan: number; text: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan}>
        <Typography color="text.secondary">{text}</Typography>
      </TableCell>
    </TableRow>
  );
}
