import { Autocomplete, Chip, TextField } from "@mui/material";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { api } from "../../../../lib/api-client";
import { useTags } from "../../../../lib/pickers";
import { applyTicketUpdate, patchTicket } from "../ticket-cache";

/** The ticket's tags, editable in place (POST /tags/sync {ticketId, tags}). */
export function TicketTags({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("tickets");
  const qc = useQueryClient();
  const tags = useTags();
  const sync = useMutation({
    mutationFn: (next: TicketView["tags"]) => api.post<unknown>("/tags/sync", { ticketId: ticket.id, tags: next }),
    onMutate: (next) => patchTicket(qc, ticket.id, { tags: next }),
    onSuccess: (result) => {
      if (result && typeof result === "object" && "uuid" in result) applyTicketUpdate(qc, result as TicketView);
    },
  });
  if (!tags.data?.length) return null;
  return (
    <Autocomplete
      multiple
      size="small"
      options={tags.data}
      value={tags.data.filter((tag) => ticket.tags.some((x) => x.id === tag.id))}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.name}
      onChange={(_e, v) => sync.mutate(v.map(({ id, name, color }) => ({ id, name, color })))}
      renderValue={(value, getItemProps) => value.map((tag, index) => <Chip {...getItemProps({ index })} key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: "#fff" }} />)}
      renderInput={(params) => <TextField {...params} variant="standard" placeholder={ticket.tags.length ? undefined : t("tags")} />}
      sx={{ mt: 0.5 }}
    />
  );
}
