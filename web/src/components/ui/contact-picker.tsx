import { Autocomplete, CircularProgress, TextField } from "@mui/material";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import { searchTerm, useDebounced } from "../../hooks/use-debounced";
import { useContactsList } from "../../lib/pickers";

/** Contact search box (3 characters, 500 ms debounce) used by the new-ticket and forward dialogs. */
export function ContactPicker({ value, onChange, label, autoFocus }: { value: ContactView | null; onChange: (c: ContactView | null) => void; label?: string; autoFocus?: boolean }) {
  const { t } = useTranslation("contacts");
  const [input, setInput] = useState("");
  const term = useDebounced(searchTerm(input, SEARCH_MIN_CHARS), DEBOUNCE_SEARCH_MS);
  const query = useContactsList(term, !!term);
  const options = useMemo(() => (term ? (query.data?.pages ?? []).flatMap((p) => p.contacts) : []), [query.data, term]);
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_e, v) => onChange(v)}
      inputValue={input}
      onInputChange={(_e, v) => setInput(v)}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(c) => `${c.name} - ${c.number}`}
      loading={query.isFetching}
      noOptionsText={input.trim().length < SEARCH_MIN_CHARS ? t("picker.typeMore") : t("picker.none")}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus={autoFocus}
          label={label ?? t("picker.label")}
          slotProps={{ input: { ...params.InputProps, endAdornment: <>{query.isFetching ? <CircularProgress size={18} /> : null}{params.InputProps.endAdornment}</> } }}
        />
      )}
    />
  );
}
