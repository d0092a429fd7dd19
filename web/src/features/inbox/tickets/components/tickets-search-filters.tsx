import { Autocomplete, Chip, Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import { useTags, useUsersList } from "../../../../lib/pickers";
import { useIsAdmin } from "../../../../lib/session/session-context";

/**
 * The search tab's filters (spec 1 "Tickets screen"): the text, tags and, for admins, users. A chunk of its own,
 * loaded when the tab is first opened: the pickers are not part of the list's first screen (issue 15, ADR 0047).
 */
export function TicketsSearchFilters({ text, onText, tagIds, onTags, userIds, onUsers }: { text: string; onText: (text: string) => void; tagIds: number[]; onTags: (ids: number[]) => void; userIds: number[]; onUsers: (ids: number[]) => void }) {
  const { t } = useTranslation("tickets");
  const isAdmin = useIsAdmin();
  const tags = useTags();
  const users = useUsersList(isAdmin);
  return (
    <Stack spacing={1} sx={{ p: 1 }}>
      <TextField size="small" placeholder={t("search.placeholder")} value={text} onChange={(e) => onText(e.target.value)} inputProps={{ "aria-label": t("search.placeholder") }} helperText={text.trim() && text.trim().length < SEARCH_MIN_CHARS ? t("search.minChars") : undefined} />
      <Autocomplete
        multiple
        size="small"
        options={tags.data ?? []}
        getOptionLabel={(o) => o.name}
        value={(tags.data ?? []).filter((tag) => tagIds.includes(tag.id))}
        onChange={(_e, v) => onTags(v.map((tag) => tag.id))}
        renderValue={(value, getItemProps) => value.map((tag, index) => <Chip {...getItemProps({ index })} key={tag.id} size="small" label={tag.name} sx={{ bgcolor: tag.color, color: "#fff" }} />)}
        renderInput={(params) => <TextField {...params} label={t("search.tags")} />}
      />
      {isAdmin && (
        <Autocomplete
          multiple
          size="small"
          options={users.data ?? []}
          getOptionLabel={(o) => o.name}
          value={(users.data ?? []).filter((u) => userIds.includes(u.id))}
          onChange={(_e, v) => onUsers(v.map((u) => u.id))}
          renderInput={(params) => <TextField {...params} label={t("search.users")} />}
        />
      )}
    </Stack>
  );
}
