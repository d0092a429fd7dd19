import { Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_FLOW_EXIT_WORDS } from "@atende/shared/domain/flows/flow";
import type { FlowDoc } from "../model/doc";

/** "a, b ,c" → ["a", "b", "c"] */
const wordsOf = (text: string) =>
  text
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);

/**
 * The flow's own settings, shown in the inspector while no node is selected (issue 30): the keywords that start it on a
 * new conversation and the words that take the customer out of it to the queue ("sair"/"atendente" by default).
 */
export function FlowSettings({ doc, onChange }: { doc: FlowDoc; onChange: (next: Pick<FlowDoc, "triggers" | "exitWords">) => void }) {
  const { t } = useTranslation("flows");
  const [keywords, setKeywords] = useState(() => (doc.triggers ?? []).map((x) => x.value).join(", "));
  const [exits, setExits] = useState(() => (doc.exitWords ?? DEFAULT_FLOW_EXIT_WORDS).join(", "));
  return (
    <Stack spacing={2} sx={{ p: 2 }} data-testid="flow-settings">
      <Typography color="text.secondary">{t("selectNode")}</Typography>
      <TextField
        size="small"
        label={t("settings.keywords")}
        helperText={t("settings.keywordsHelp")}
        value={keywords}
        onChange={(e) => {
          setKeywords(e.target.value);
          onChange({ triggers: wordsOf(e.target.value).map((value) => ({ type: "keyword" as const, value })), exitWords: doc.exitWords });
        }}
        slotProps={{ htmlInput: { "data-testid": "flow-keywords", maxLength: 1000 } }}
      />
      <TextField
        size="small"
        label={t("settings.exitWords")}
        helperText={t("settings.exitWordsHelp")}
        value={exits}
        onChange={(e) => {
          setExits(e.target.value);
          onChange({ triggers: doc.triggers, exitWords: wordsOf(e.target.value) });
        }}
        slotProps={{ htmlInput: { "data-testid": "flow-exit-words", maxLength: 1000 } }}
      />
    </Stack>
  );
}
