import { Avatar, Box, Chip, CircularProgress, List, ListItemAvatar, ListItemButton, ListItemText, Stack, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { SearchHit } from "@atende/shared/contracts/http/search";
import { useSearchResults } from "../api/search";
import { HighlightedText } from "./highlighted-text";

const STATUS_COLOR = { open: "primary", pending: "secondary", closed: "default" } as const;

/** Where a result opens: the ticket, scrolled to the matching message when one matched. */
export const resultPath = (hit: SearchHit) => `/tickets/${hit.uuid}${hit.message ? `?message=${encodeURIComponent(hit.message.id)}` : ""}`;

/**
 * Full-text results (docs/adr/0035): one row per ticket with the message (or the name, number or protocol) that
 * matched as a highlighted snippet; opening one scrolls its conversation to the message.
 */
export function SearchResults({ q, selectedUuid }: { q: string; selectedUuid?: string }) {
  const { t, i18n } = useTranslation("search");
  const navigate = useNavigate();
  const query = useSearchResults(q);
  const results = query.data?.results ?? [];
  const when = (iso: string) => new Date(iso).toLocaleDateString(i18n.language === "pt" ? "pt-BR" : i18n.language, { day: "2-digit", month: "2-digit", year: "2-digit" });

  return (
    <Box sx={{ flex: 1, overflowY: "auto", minHeight: 0 }} data-testid="search-results">
      {query.isFetching && !results.length && (
        <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
          <CircularProgress size={22} />
        </Box>
      )}
      {query.isError && (
        <Typography color="error" variant="body2" sx={{ p: 2 }}>
          {t("results.error")}
        </Typography>
      )}
      {query.isSuccess && !results.length && (
        <Typography color="text.secondary" variant="body2" sx={{ p: 2, textAlign: "center" }}>
          {t("results.empty", { q })}
        </Typography>
      )}
      <List disablePadding>
        {results.map((hit) => (
          <ListItemButton
            key={hit.ticketId}
            divider
            alignItems="flex-start"
            selected={hit.uuid === selectedUuid}
            onClick={() => navigate(resultPath(hit))}
            data-testid="search-result"
            data-ticket-id={hit.ticketId}
          >
            <ListItemAvatar>
              <Avatar src={hit.contact?.profilePicUrl ?? undefined}>{hit.contact?.name?.[0]?.toUpperCase()}</Avatar>
            </ListItemAvatar>
            <ListItemText
              disableTypography
              primary={
                <Stack direction="row" alignItems="center" spacing={1}>
                  <Typography variant="subtitle2" noWrap sx={{ flex: 1 }}>
                    {hit.contact?.name ?? `#${hit.ticketId}`}
                  </Typography>
                  <Chip size="small" label={t(`status.${hit.status}`)} color={STATUS_COLOR[hit.status]} variant="outlined" />
                  <Typography variant="caption" color="text.secondary">
                    {when(hit.message?.createdAt ?? hit.updatedAt)}
                  </Typography>
                </Stack>
              }
              secondary={
                <Typography variant="body2" color="text.secondary" component="div" sx={{ wordBreak: "break-word" }} data-testid="search-snippet">
                  {hit.field !== "message" && <Chip size="small" label={t(`results.field.${hit.field}`)} sx={{ mr: 0.5, height: 18 }} />}
                  {hit.message?.fromMe && <b>{t("results.fromMe")}: </b>}
                  <HighlightedText segments={hit.snippet} />
                </Typography>
              }
            />
          </ListItemButton>
        ))}
      </List>
      {query.data?.hasMore && (
        <Typography variant="caption" color="text.secondary" sx={{ display: "block", p: 1, textAlign: "center" }}>
          {t("results.more", { n: results.length })}
        </Typography>
      )}
    </Box>
  );
}
