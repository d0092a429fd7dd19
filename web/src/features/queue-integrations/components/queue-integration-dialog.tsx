import { Alert, AlertTitle, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from "@mui/material";
import { useEffect, useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { DialogflowTestResponse, QueueIntegrationResponse } from "@atende/shared/contracts/http/queue-integrations";
import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_DEFAULTS,
  INTEGRATION_FIELDS,
  INTEGRATION_TYPES,
  type IntegrationType,
  dialogflowTestSchema,
  queueIntegrationSchema,
} from "@atende/shared/domain/queue-integrations/queue-integration";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { type QueueIntegrationForm, useSaveQueueIntegration, useTestDialogflow } from "../api/queue-integrations";
import { WebhookSecretPanel } from "./webhook-secret-panel";

type Field = keyof QueueIntegrationForm;
type Errors = Partial<Record<Field, string>>;
const KNOWN_MESSAGES = new Set(["Required", "Too Short!", "Too Long!", "invalid"]);

const DEFAULTS: QueueIntegrationForm = { ...INTEGRATION_DEFAULTS };
const fromRecord = (r: QueueIntegrationResponse | null): QueueIntegrationForm =>
  r
    ? {
        type: r.type,
        name: r.name,
        projectName: r.projectName,
        jsonContent: r.jsonContent,
        language: r.language ?? "",
        urlN8N: r.urlN8N,
        typebotSlug: r.typebotSlug,
        typebotExpires: r.typebotExpires,
        typebotDelayMessage: r.typebotDelayMessage,
        typebotKeywordFinish: r.typebotKeywordFinish,
        typebotKeywordRestart: r.typebotKeywordRestart,
        typebotUnknownMessage: r.typebotUnknownMessage,
        typebotRestartMessage: r.typebotRestartMessage,
      }
    : DEFAULTS;

const errorsOf = (issues: { path: PropertyKey[]; message: string }[]): Errors => {
  const errors: Errors = {};
  for (const issue of issues) {
    const message = KNOWN_MESSAGES.has(issue.message) ? issue.message : "invalid";
    errors[issue.path[0] as Field] ??= fieldError({ type: "zod", message } as FieldError);
  }
  return errors;
};

/** Which fields are required in the chosen type's form (spec 3 section 5). */
const REQUIRED: Record<IntegrationType, Field[]> = { dialogflow: ["name", "language"], n8n: ["name", "urlN8N"], webhook: ["name", "urlN8N"], typebot: ["name", "urlN8N", "typebotSlug"] };
const MULTILINE: Partial<Record<Field, number>> = { jsonContent: 5, typebotUnknownMessage: 2, typebotRestartMessage: 2 };
const NUMERIC = new Set<Field>(["typebotExpires", "typebotDelayMessage"]);
/** n8n and webhook calls are signed with the integration's secret (docs/integrations.md) */
const isSigned = (type: IntegrationType) => type === "n8n" || type === "webhook";

/**
 * Add or edit a queue integration. The fields follow the chosen type (DialogFlow, N8N, WebHooks, Typebot); on close or
 * after a successful save the form returns to its defaults (type typebot). DialogFlow offers a test that shows the
 * agent's answer. n8n and webhook show their signing secret once, when a save or a rotation made it: then the dialog
 * stays open on it until "Concluir".
 */
export function QueueIntegrationDialog({ open, record, onClose }: { open: boolean; record: QueueIntegrationResponse | null; onClose: () => void }) {
  const { t } = useTranslation("queueIntegrations");
  const save = useSaveQueueIntegration();
  const test = useTestDialogflow();
  const [form, setForm] = useState<QueueIntegrationForm>(DEFAULTS);
  const [errors, setErrors] = useState<Errors>({});
  /** a signing secret just made (by this save or a rotation): shown until the dialog closes, never again */
  const [revealed, setRevealed] = useState<{ id: number; secret: string } | null>(null);
  const [testAnswer, setTestAnswer] = useState<DialogflowTestResponse | null>(null);
  useEffect(() => {
    if (open) setForm(fromRecord(record));
  }, [open, record]);

  const close = () => {
    setForm(DEFAULTS);
    setErrors({});
    setRevealed(null);
    setTestAnswer(null);
    onClose();
  };
  const set = <K extends Field>(key: K, value: QueueIntegrationForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = () => {
    const parsed = queueIntegrationSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error.issues));
      return;
    }
    setErrors({});
    // spec 3 section 3: for n8n, webhook and typebot the project name is the name
    const input = form.type === "dialogflow" ? form : { ...form, projectName: form.name };
    save.mutate(
      { id: record?.id, input },
      {
        onSuccess: (saved) => {
          toast.success(record ? t("edited") : t("added"));
          if (saved.webhookSecret) setRevealed({ id: saved.id, secret: saved.webhookSecret });
          else close();
        },
      },
    );
  };

  const runTest = () => {
    const parsed = dialogflowTestSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(errorsOf(parsed.error.issues));
      return;
    }
    setTestAnswer(null);
    test.mutate(
      { ...parsed.data, id: record?.id },
      {
        onSuccess: (answer) => {
          toast.success(t("testOk"));
          setTestAnswer(answer);
        },
      },
    );
  };

  const input = (field: Field) => {
    const rows = MULTILINE[field];
    return (
      <TextField
        key={field}
        label={t(`fields.${field}`)}
        value={form[field]}
        onChange={(e) => set(field, (NUMERIC.has(field) ? (e.target.value === "" ? "" : Number(e.target.value)) : e.target.value) as never)}
        type={NUMERIC.has(field) ? "number" : "text"}
        required={REQUIRED[form.type].includes(field)}
        error={!!errors[field]}
        helperText={errors[field]}
        multiline={!!rows}
        minRows={rows}
        fullWidth
      />
    );
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle>{record ? t("edit") : t("add")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              select
              label={t("fields.type")}
              value={form.type}
              onChange={(e) => {
                set("type", e.target.value as IntegrationType);
                setErrors({});
              }}
              required
              sx={{ minWidth: 200 }}
            >
              {INTEGRATION_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            {input("name")}
            {form.type === "dialogflow" && (
              <TextField select label={t("fields.language")} value={form.language} onChange={(e) => set("language", e.target.value)} required error={!!errors.language} helperText={errors.language} sx={{ minWidth: 200 }}>
                {DIALOGFLOW_LANGUAGES.map((lng) => (
                  <MenuItem key={lng} value={lng}>
                    {t(`languages.${lng}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
          {INTEGRATION_FIELDS[form.type].filter((f) => f !== "name" && f !== "language").map((f) => input(f))}
          {form.type === "dialogflow" && testAnswer && (
            <Alert severity={testAnswer.answer.length ? "success" : "info"} data-testid="dialogflow-test-answer">
              <AlertTitle>{testAnswer.answer.length ? t("testAnswer", { intent: testAnswer.intent ?? "—" }) : t("testAnswerEmpty", { intent: testAnswer.intent ?? "—" })}</AlertTitle>
              {testAnswer.answer.map((line, i) => (
                <div key={i}>{line}</div>
              ))}
            </Alert>
          )}
          {(isSigned(form.type) || revealed) && (
            <WebhookSecretPanel
              integrationId={revealed?.id ?? (record && isSigned(record.type) ? record.id : null)}
              hasSecret={!!revealed || (!!record && isSigned(record.type) && record.hasWebhookSecret)}
              secret={revealed?.secret ?? null}
              onSecret={(secret) => record && setRevealed({ id: record.id, secret })}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {revealed && !record ? (
          // created: the secret above is all that is left to do
          <Button variant="contained" onClick={close}>
            {t("secret.done")}
          </Button>
        ) : (
          <>
            {form.type === "dialogflow" && (
              <Button onClick={runTest} loading={test.isPending} sx={{ mr: "auto" }}>
                {t("test")}
              </Button>
            )}
            {revealed ? (
              <Button variant="contained" onClick={close}>
                {t("secret.done")}
              </Button>
            ) : (
              <>
                <Button onClick={close}>{t("common:cancel")}</Button>
                <Button variant="contained" onClick={submit} loading={save.isPending}>
                  {record ? t("common:save") : t("common:add")}
                </Button>
              </>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
