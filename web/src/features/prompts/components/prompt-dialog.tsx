import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, InputAdornment, MenuItem, Stack, TextField } from "@mui/material";
import { useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { PromptResponse } from "@atende/shared/contracts/http/prompts";
import { PROMPT_DEFAULTS, PROMPT_QUEUE_REQUIRED, PROMPT_VOICES, promptSchema, promptUpdateSchema } from "@atende/shared/domain/prompts/prompt";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { useQueueList } from "../../../lib/pickers";
import { type PromptForm, useSavePrompt } from "../api/prompts";
import { botFieldsFromRecord, PromptBotFields, type PromptBotFieldsValue } from "./prompt-bot-fields";

type Errors = Partial<Record<keyof PromptForm, string>>;
const KNOWN_MESSAGES = new Set(["Required", "Too Short!", "Too Long!"]);

const initialForm = (p: PromptResponse | null): PromptForm => ({
  name: p?.name ?? "",
  prompt: p?.prompt ?? "",
  voice: p?.voice ?? PROMPT_DEFAULTS.voice,
  // secrets come back masked: the field starts empty and an empty field keeps the saved secret
  voiceKey: "",
  voiceRegion: p?.voiceRegion ?? "",
  maxTokens: p?.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
  temperature: p?.temperature ?? PROMPT_DEFAULTS.temperature,
  apiKey: "",
  queueId: p?.queueId ?? null,
  maxMessages: p?.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
  ...botFieldsFromRecord(p),
});

/** Validates with the shared schema (the server runs the same); an edit may leave the secrets empty. */
const validate = (form: PromptForm, editing: boolean): { input?: Partial<PromptForm>; errors: Errors } => {
  const input: Partial<PromptForm> = { ...form };
  if (editing && !form.apiKey) delete input.apiKey;
  if (editing && !form.voiceKey) delete input.voiceKey;
  const parsed = editing ? promptUpdateSchema.safeParse(input) : promptSchema.safeParse(input);
  const errors: Errors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof PromptForm;
      // messages of the validation namespace are translated; zod's own (numbers, enums) show as "Valor inválido"
      const message = KNOWN_MESSAGES.has(issue.message) ? issue.message : "invalid";
      errors[field] ??= fieldError({ type: "zod", message } as FieldError);
    }
  }
  if (!form.queueId) errors.queueId = PROMPT_QUEUE_REQUIRED;
  return Object.keys(errors).length ? { errors } : { input, errors };
};

/** Add or edit an AI prompt: name, prompt, queue ("Informe o setor"), limits, voice, API key (masked after saving). */
export function PromptDialog({ record, onClose }: { record: PromptResponse | null; onClose: () => void }) {
  const { t } = useTranslation("prompts");
  const queues = useQueueList();
  const save = useSavePrompt();
  const [form, setForm] = useState<PromptForm>(() => initialForm(record));
  const [errors, setErrors] = useState<Errors>({});
  const [showKey, setShowKey] = useState(false);
  const set = <K extends keyof PromptForm>(key: K, value: PromptForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = () => {
    const { input, errors: found } = validate(form, !!record);
    setErrors(found);
    if (!input) {
      if (found.queueId) toast.error(t("queueRequired"));
      return;
    }
    save.mutate(
      { id: record?.id, input },
      {
        onSuccess: () => {
          toast.success(t("saved"));
          onClose();
        },
      },
    );
  };
  const num = (value: string) => (value === "" ? Number.NaN : Number(value));
  const errorProps = (key: keyof PromptForm) => ({ error: !!errors[key], helperText: key === "queueId" && errors.queueId ? t("queueRequired") : errors[key] });

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField label={t("fields.name")} value={form.name} onChange={(e) => set("name", e.target.value)} required autoFocus {...errorProps("name")} />
          <TextField
            label={t("fields.apiKey")}
            value={form.apiKey}
            onChange={(e) => set("apiKey", e.target.value)}
            type={showKey ? "text" : "password"}
            autoComplete="off"
            required={!record}
            error={!!errors.apiKey}
            helperText={errors.apiKey ?? (record?.apiKey ? t("apiKeyKeep", { masked: record.apiKey }) : undefined)}
            slotProps={{
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton aria-label={showKey ? t("hideSecret") : t("showSecret")} onClick={() => setShowKey((v) => !v)} edge="end" size="small">
                      {showKey ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField label={t("fields.prompt")} value={form.prompt} onChange={(e) => set("prompt", e.target.value)} multiline minRows={6} maxRows={16} required {...errorProps("prompt")} />
          <TextField select label={t("fields.queue")} value={form.queueId ?? ""} onChange={(e) => set("queueId", e.target.value === "" ? null : Number(e.target.value))} required {...errorProps("queueId")}>
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={q.id}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField label={t("fields.maxTokens")} type="number" value={Number.isNaN(form.maxTokens) ? "" : form.maxTokens} onChange={(e) => set("maxTokens", num(e.target.value))} fullWidth {...errorProps("maxTokens")} />
            <TextField
              label={t("fields.temperature")}
              type="number"
              value={Number.isNaN(form.temperature) ? "" : form.temperature}
              onChange={(e) => set("temperature", num(e.target.value))}
              slotProps={{ htmlInput: { step: 0.1, min: 0, max: 2 } }}
              fullWidth
              {...errorProps("temperature")}
            />
            <TextField label={t("fields.maxMessages")} type="number" value={Number.isNaN(form.maxMessages) ? "" : form.maxMessages} onChange={(e) => set("maxMessages", num(e.target.value))} fullWidth {...errorProps("maxMessages")} />
          </Stack>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField select label={t("fields.voice")} value={form.voice} onChange={(e) => set("voice", e.target.value as PromptForm["voice"])} fullWidth {...errorProps("voice")}>
              {PROMPT_VOICES.map((v) => (
                <MenuItem key={v} value={v}>
                  {v === "texto" ? t("voices.texto") : v}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t("fields.voiceKey")}
              value={form.voiceKey}
              onChange={(e) => set("voiceKey", e.target.value)}
              type="password"
              autoComplete="off"
              fullWidth
              error={!!errors.voiceKey}
              helperText={errors.voiceKey ?? (record?.voiceKey ? t("voiceKeyKeep", { masked: record.voiceKey }) : undefined)}
            />
            <TextField label={t("fields.voiceRegion")} value={form.voiceRegion} onChange={(e) => set("voiceRegion", e.target.value)} fullWidth {...errorProps("voiceRegion")} />
          </Stack>
          <PromptBotFields
            value={{ model: form.model, baseUrl: form.baseUrl, handoverKeywords: form.handoverKeywords, monthlyTokenCap: form.monthlyTokenCap }}
            onChange={(v: PromptBotFieldsValue) => setForm((f) => ({ ...f, ...v }))}
            errors={{ model: errors.model, baseUrl: errors.baseUrl, handoverKeywords: errors.handoverKeywords, monthlyTokenCap: errors.monthlyTokenCap }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {record ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
