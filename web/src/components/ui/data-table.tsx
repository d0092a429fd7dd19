import { Box, CircularProgress, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import type { SxProps, Theme } from "@mui/material/styles";
import { type HTMLAttributes, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useInfiniteQueryScroll } from "../../hooks/use-infinite-scroll";
import { ConfirmDeleteDialog, type DeleteMutation } from "./confirm-delete-dialog";
import { EditDeleteActions } from "./edit-delete-actions";

/** One column: its header, how a row fills its cell, alignment and optional styles (header and cell). */
export type DataColumn<T> = {
  header?: ReactNode;
  cell: (row: T) => ReactNode;
  align?: "left" | "center" | "right";
  /** "checkbox" for a narrow leading icon column */
  padding?: "checkbox";
  headSx?: SxProps<Theme>;
  sx?: SxProps<Theme>;
  /** data-testid of each cell of the column */
  testId?: string;
};

/** The query behind the rows: loading state and, for an infinite query, the next page loaded on scroll. */
export type DataTableQuery = { isLoading: boolean; isFetchingNextPage?: boolean; hasNextPage?: boolean; fetchNextPage?: () => unknown };

/** Delete with confirmation: the mutation, the dialog's title for the row, its text, and the toast on success. */
export type DataTableRemove<T> = { mutation: DeleteMutation; title: (row: T) => string; text: ReactNode; deletedText: string };

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { sx?: SxProps<Theme> } & Record<`data-${string}`, string | undefined>;

const noNextPage = () => undefined;

/**
 * The one table of the list pages (ADR 0025): columns, rows with their actions (extra buttons, edit, delete after a
 * confirmation dialog), loading spinner, empty row, and the next page of an infinite query loaded near the bottom.
 *
 * With a `title` it is the whole list page ("fill": full height, the panel scrolls under a sticky header; "flow":
 * the panel as tall as its rows): the heading line holds the title, the search box slot and the `toolbar`.
 * Without a title it is the panel alone (a tab, or a list under a calendar). Dialogs of the page go next to it.
 */
export function DataTable<T extends { id: number }>(props: {
  columns: DataColumn<T>[];
  rows: readonly T[];
  /** data-testid of each row */
  rowTestId: string;
  /** more attributes of a row (data-*, sx, onClick) */
  rowProps?: (row: T) => RowAttributes;
  query?: DataTableQuery;
  /** the text of the one row shown when there are no rows (after loading) */
  empty?: ReactNode;
  /** extra row buttons, shown before edit and delete */
  actions?: (row: T) => ReactNode;
  onEdit?: (row: T) => void;
  canEdit?: (row: T) => boolean;
  remove?: DataTableRemove<T>;
  canDelete?: (row: T) => boolean;
  title?: ReactNode;
  /** the search box: its text, how it changes, and its label (placeholder and accessible name) */
  search?: { value: string; onChange: (value: string) => void; label: string };
  toolbar?: ReactNode;
  layout?: "fill" | "flow";
  scrollTestId?: string;
  panelSx?: SxProps<Theme>;
}) {
  const { t } = useTranslation();
  const { columns, rows, query, remove, search, layout = "fill" } = props;
  const [deleting, setDeleting] = useState<T | null>(null);
  const onScroll = useInfiniteQueryScroll({ hasNextPage: !!query?.hasNextPage, isFetchingNextPage: !!query?.isFetchingNextPage, fetchNextPage: query?.fetchNextPage ?? noNextPage });
  const fill = layout === "fill";
  const hasActions = !!(props.actions || props.onEdit || remove);
  const colSpan = columns.length + (hasActions ? 1 : 0);
  const loading = !!query && (query.isLoading || !!query.isFetchingNextPage);

  const rowActions = (row: T) => {
    const { onEdit, canEdit = () => true, canDelete = () => true } = props;
    return (
      <>
        {props.actions?.(row)}
        <EditDeleteActions onEdit={onEdit && canEdit(row) ? () => onEdit(row) : undefined} onDelete={remove && canDelete(row) ? () => setDeleting(row) : undefined} />
      </>
    );
  };

  const panel = (
    <Paper variant="outlined" sx={props.panelSx ?? (fill ? { flex: 1, minHeight: 0, overflow: "auto" } : { overflow: "auto" })} onScroll={query?.fetchNextPage ? onScroll : undefined} data-testid={props.scrollTestId}>
      <Table size="small" stickyHeader={fill}>
        <TableHead>
          <TableRow>
            {columns.map((c, i) => (
              <TableCell key={i} align={c.align} padding={c.padding} sx={c.headSx}>
                {c.header}
              </TableCell>
            ))}
            {hasActions && <TableCell align="right">{t("common:actions")}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover data-testid={props.rowTestId} {...props.rowProps?.(row)}>
              {columns.map((c, i) => (
                <TableCell key={i} align={c.align} padding={c.padding} sx={c.sx} data-testid={c.testId}>
                  {c.cell(row)}
                </TableCell>
              ))}
              {hasActions && (
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {rowActions(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
          {props.empty !== undefined && !query?.isLoading && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={colSpan}>
                <Typography color="text.secondary">{props.empty}</Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
      {loading && (
        <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
          <CircularProgress size={24} />
        </Box>
      )}
    </Paper>
  );

  const dialog = remove && (
    <ConfirmDeleteDialog target={deleting} title={deleting ? remove.title(deleting) : ""} deletedText={remove.deletedText} remove={remove.mutation} onClose={() => setDeleting(null)}>
      {remove.text}
    </ConfirmDeleteDialog>
  );

  if (props.title === undefined)
    return (
      <>
        {panel}
        {dialog}
      </>
    );
  return (
    <Box
      sx={
        fill
          ? { p: { xs: 1, sm: 2 }, height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", boxSizing: "border-box" }
          : { p: { xs: 1, sm: 2 } }
      }
    >
      <Stack direction={fill ? { xs: "column", sm: "row" } : "row"} spacing={1} alignItems={fill ? { sm: "center" } : "center"} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {props.title}
        </Typography>
        {search && (
          <TextField size="small" placeholder={search.label} value={search.value} onChange={(e) => search.onChange(e.target.value)} slotProps={{ htmlInput: { "aria-label": search.label } }} />
        )}
        {props.toolbar}
      </Stack>
      {panel}
      {dialog}
    </Box>
  );
}
