import { Stack, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PROMPT_DEFAULTS } from "@atende/shared/domain/prompts/prompt";

/** The fields issue 11 adds to a prompt, as the dialog edits them (the keywords as one line of text). */
export type PromptBotFieldsValue = { model: string; baseUrl: string; handoverKeywords: string; monthlyTokenCap: number };
export type PromptBotFieldsErrors = Partial<Record<keyof PromptBotFieldsValue, string>>;

export const botFieldsFromRecord = (p: { model?: string; baseUrl?: string; handoverKeywords?: string[]; monthlyTokenCap?: number } | null): PromptBotFieldsValue => ({
  model: p?.model ?? "",
  baseUrl: p?.baseUrl ?? "",
  handoverKeywords: (p?.handoverKeywords ?? PROMPT_DEFAULTS.handoverKeywords).join(", "),
  monthlyTokenCap: p?.monthlyTokenCap ?? PROMPT_DEFAULTS.monthlyTokenCap,
});

/**
 * Model and endpoint (any OpenAI-compatible provider; empty = OpenAI's), the words that hand the conversation to a
 * person, and the monthly token cap (0 = none) of an AI prompt.
 */
export function PromptBotFields({
  value,
  onChange,
  errors = {},
}: {
  value: PromptBotFieldsValue;
  onChange: (next: PromptBotFieldsValue) => void;
  errors?: PromptBotFieldsErrors;
}) {
  const { t } = useTranslation("prompts");
  const set = <K extends keyof PromptBotFieldsValue>(key: K, v: PromptBotFieldsValue[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <TextField
          label={t("fields.model")}
          value={value.model}
          onChange={(e) => set("model", e.target.value)}
          placeholder={PROMPT_DEFAULTS.model}
          error={!!errors.model}
          helperText={errors.model ?? t("hints.model", { model: PROMPT_DEFAULTS.model })}
          fullWidth
        />
        <TextField
          label={t("fields.baseUrl")}
          value={value.baseUrl}
          onChange={(e) => set("baseUrl", e.target.value)}
          placeholder="https://api.openai.com/v1"
          error={!!errors.baseUrl}
          helperText={errors.baseUrl ?? t("hints.baseUrl")}
          fullWidth
        />
      </Stack>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
        <TextField
          label={t("fields.handoverKeywords")}
          value={value.handoverKeywords}
          onChange={(e) => set("handoverKeywords", e.target.value)}
          error={!!errors.handoverKeywords}
          helperText={errors.handoverKeywords ?? t("hints.handoverKeywords")}
          fullWidth
        />
        <TextField
          label={t("fields.monthlyTokenCap")}
          type="number"
          value={Number.isNaN(value.monthlyTokenCap) ? "" : value.monthlyTokenCap}
          onChange={(e) => set("monthlyTokenCap", e.target.value === "" ? Number.NaN : Number(e.target.value))}
          slotProps={{ htmlInput: { min: 0, step: 1000 } }}
          error={!!errors.monthlyTokenCap}
          helperText={errors.monthlyTokenCap ?? t("hints.monthlyTokenCap")}
          fullWidth
        />
      </Stack>
    </Stack>
  );
}
