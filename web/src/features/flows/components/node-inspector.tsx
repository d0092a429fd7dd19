import DeleteIcon from "@mui/icons-material/Delete";
import { Box, Button, Checkbox, FormControlLabel, IconButton, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { Controller, useFieldArray, useForm, useWatch, type FieldValues, type Resolver, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CONDITION_OPS, FLOW_NODE_DATA, HTTP_METHODS, QUESTION_VALIDATIONS } from "@atende/shared/domain/flows/flow";
import { useQueues, useTags, useUsersList } from "../../../lib/pickers";
import { AttachmentPicker } from "../../../components/ui/attachment-picker";
import { useFileListPicker, usePromptPicker, useUploadFlowMedia } from "../api/flows";
import type { DocNode } from "../model/doc";
import { KeyValueField } from "./key-value-field";

type Form = UseFormReturn<FieldValues>;

/** The inspector of one node: a react-hook-form of the node type's `data`, checked by the shared zod schema (ADR 0086). */
export function NodeInspector({ node, readOnly, onChange, onDelete }: { node: DocNode; readOnly?: boolean; onChange: (data: Record<string, unknown>) => void; onDelete: () => void }) {
  const { t } = useTranslation("flows");
  const form = useForm<FieldValues>({
    resolver: zodResolver(FLOW_NODE_DATA[node.type] as never) as Resolver<FieldValues>,
    defaultValues: node.data,
    mode: "all",
  });
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);
  // every change goes to the document (one undo step per burst); the schema's errors show under the fields
  useEffect(() => {
    void form.trigger();
    const sub = form.watch((values) => changed.current(structuredClone(values) as Record<string, unknown>));
    return () => sub.unsubscribe();
    // the form is made per node (the parent keys it by node id and revision): subscribe once
  }, [form]);
  return (
    <Box data-testid="node-inspector" component="form" onSubmit={(e) => e.preventDefault()} sx={{ p: 2, display: "flex", flexDirection: "column", gap: 2 }}>
      <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center" }}>
        <Typography variant="h6">{t(`type.${node.type}`)}</Typography>
        {!readOnly && node.type !== "start" && (
          <IconButton aria-label={t("deleteNode")} onClick={onDelete} data-testid="inspector-delete">
            <DeleteIcon />
          </IconButton>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t("nodeId")}: {node.id}
      </Typography>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, display: "flex", flexDirection: "column", gap: 16 }}>
        <Fields type={node.type} form={form} />
      </fieldset>
    </Box>
  );
}

const err = (form: Form, path: string): string | undefined => {
  const parts = path.split(".");
  let cur: unknown = form.formState.errors;
  for (const p of parts) cur = (cur as Record<string, unknown> | undefined)?.[p];
  const m = (cur as { message?: string } | undefined)?.message;
  return typeof m === "string" ? m : undefined;
};

function Text({ form, name, label, multiline, type }: { form: Form; name: string; label: string; multiline?: boolean; type?: "number" }) {
  const { t } = useTranslation("validation");
  const message = err(form, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          label={label}
          size="small"
          multiline={multiline}
          minRows={multiline ? 2 : undefined}
          type={type}
          value={field.value ?? ""}
          onChange={(e) => field.onChange(type === "number" ? (e.target.value === "" ? undefined : Number(e.target.value)) : e.target.value)}
          onBlur={field.onBlur}
          error={!!message}
          helperText={message ? t(message, { defaultValue: t("invalid") }) : undefined}
          slotProps={{ htmlInput: { "data-testid": `field-${name}` } }}
        />
      )}
    />
  );
}

function Select({ form, name, label, options, numeric }: { form: Form; name: string; label: string; options: { value: string | number; label: string }[]; numeric?: boolean }) {
  const { t } = useTranslation("validation");
  const message = err(form, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          label={label}
          size="small"
          value={field.value ?? ""}
          onChange={(e) => field.onChange(numeric ? (e.target.value === "" ? null : Number(e.target.value)) : e.target.value)}
          error={!!message}
          helperText={message ? t(message, { defaultValue: t("invalid") }) : undefined}
          slotProps={{ htmlInput: { "data-testid": `field-${name}` } }}
        >
          {numeric && <MenuItem value="">—</MenuItem>}
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

function MenuOptions({ form }: { form: Form }) {
  const { t } = useTranslation("flows");
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "options" });
  const listError = err(form, "options") ?? err(form, "options.root");
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">{t("field.options")}</Typography>
      {fields.map((f, i) => (
        <Stack key={f.id} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
          <Box sx={{ width: 70 }}>
            <Text form={form} name={`options.${i}.id`} label={t("field.optionId")} />
          </Box>
          <Box sx={{ flex: 1 }}>
            <Text form={form} name={`options.${i}.label`} label={t("field.optionLabel")} />
          </Box>
          <IconButton aria-label={t("remove")} onClick={() => remove(i)} size="small">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      {listError && (
        <Typography variant="caption" color="error">
          {listError}
        </Typography>
      )}
      <Button size="small" onClick={() => append({ id: String(fields.length + 1), label: "" })} data-testid="add-option">
        {t("addOption")}
      </Button>
    </Stack>
  );
}

function ConditionRules({ form }: { form: Form }) {
  const { t } = useTranslation("flows");
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "rules" });
  return (
    <Stack spacing={1}>
      <Select form={form} name="match" label={t("field.match")} options={["all", "any"].map((v) => ({ value: v, label: t(`match.${v}`) }))} />
      {fields.map((f, i) => (
        <Stack key={f.id} spacing={1} sx={{ borderLeft: 2, borderColor: "divider", pl: 1 }}>
          <Text form={form} name={`rules.${i}.left`} label={t("field.left")} />
          <Select form={form} name={`rules.${i}.op`} label={t("field.op")} options={CONDITION_OPS.map((v) => ({ value: v, label: t(`op.${v}`) }))} />
          <Text form={form} name={`rules.${i}.right`} label={t("field.right")} />
          <Button size="small" color="inherit" onClick={() => remove(i)}>
            {t("remove")}
          </Button>
        </Stack>
      ))}
      <Button size="small" onClick={() => append({ left: "", op: "eq", right: "" })}>
        {t("addRule")}
      </Button>
    </Stack>
  );
}

/** The media node's uploaded file (beside the file list): "Enviar arquivo" stores it (POST /flows/media) and sets `file`. */
function MediaFile({ form }: { form: Form }) {
  const { t } = useTranslation("flows");
  const upload = useUploadFlowMedia();
  const file = useWatch({ control: form.control, name: "file" }) as { name?: string } | undefined;
  // the schema's "a file list or a file" error sits on fileListId: check the whole node again
  const setFile = (value: unknown) => {
    form.setValue("file", value, { shouldDirty: true });
    void form.trigger();
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", minWidth: 0 }}>
      <AttachmentPicker
        testId="media-upload"
        name={upload.isPending ? t("uploading") : (file?.name ?? null)}
        attachLabel={t("uploadFile")}
        removeLabel={t("removeFile")}
        onPick={(picked) => {
          if (picked) upload.mutate(picked, { onSuccess: setFile });
        }}
        onRemove={() => setFile(undefined)}
      />
    </Stack>
  );
}

function Fields({ type, form }: { type: DocNode["type"]; form: Form }) {
  const { t } = useTranslation("flows");
  const queues = useQueues();
  const users = useUsersList(type === "transfer");
  const tags = useTags();
  const prompts = usePromptPicker(type === "ai");
  const fileLists = useFileListPicker(type === "media");
  const retries = <Text form={form} name="retries" label={t("field.retries")} type="number" />;
  switch (type) {
    case "start":
      return <Typography variant="body2">{t("startHelp")}</Typography>;
    case "message":
      return <Text form={form} name="text" label={t("field.text")} multiline />;
    case "media":
      return (
        <>
          <Select form={form} name="fileListId" numeric label={t("field.fileListId")} options={(fileLists.data?.files ?? []).map((f) => ({ value: f.id, label: f.name }))} />
          <MediaFile form={form} />
          <Text form={form} name="caption" label={t("field.caption")} multiline />
        </>
      );
    case "menu":
      return (
        <>
          <Text form={form} name="text" label={t("field.text")} multiline />
          <MenuOptions form={form} />
          <Text form={form} name="invalidText" label={t("field.invalidText")} />
          {retries}
        </>
      );
    case "question":
      return (
        <>
          <Text form={form} name="text" label={t("field.text")} multiline />
          <Text form={form} name="saveAs" label={t("field.saveAs")} />
          <Select form={form} name="validate" label={t("field.validate")} options={QUESTION_VALIDATIONS.map((v) => ({ value: v, label: t(`validate.${v}`) }))} />
          <Text form={form} name="invalidText" label={t("field.invalidText")} />
          {retries}
        </>
      );
    case "condition":
      return <ConditionRules form={form} />;
    case "http":
      return (
        <>
          <Select form={form} name="method" label={t("field.method")} options={HTTP_METHODS.map((v) => ({ value: v, label: v }))} />
          <Text form={form} name="url" label={t("field.url")} />
          <Controller control={form.control} name="headers" render={({ field }) => <KeyValueField label={t("field.headers")} value={field.value as Record<string, string>} onChange={field.onChange} />} />
          <Text form={form} name="body" label={t("field.body")} multiline />
          <Controller control={form.control} name="saveAs" render={({ field }) => <KeyValueField label={t("field.httpSaveAs")} keyHint="vars.order" valueHint="$.order.id" value={field.value as Record<string, string>} onChange={field.onChange} />} />
          {err(form, "saveAs") && <Typography variant="caption" color="error">{err(form, "saveAs")}</Typography>}
          <Text form={form} name="timeoutMs" label={t("field.timeoutMs")} type="number" />
        </>
      );
    case "ai":
      return <Select form={form} name="promptId" numeric label={t("field.promptId")} options={(prompts.data?.prompts ?? []).map((p) => ({ value: p.id, label: p.name }))} />;
    case "tag":
      return <Select form={form} name="tagId" numeric label={t("field.tagId")} options={(tags.data ?? []).map((p) => ({ value: p.id, label: p.name }))} />;
    case "wait":
      return <Text form={form} name="seconds" label={t("field.seconds")} type="number" />;
    case "transfer":
      return (
        <>
          <Select form={form} name="queueId" numeric label={t("field.queueId")} options={(queues.data ?? []).map((q) => ({ value: q.id, label: q.name }))} />
          <Select form={form} name="userId" numeric label={t("field.userId")} options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name }))} />
          <Text form={form} name="text" label={t("field.text")} multiline />
        </>
      );
    case "end":
      return (
        <>
          <Text form={form} name="text" label={t("field.text")} multiline />
          <Controller
            control={form.control}
            name="closeTicket"
            render={({ field }) => <FormControlLabel control={<Checkbox checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t("field.closeTicket")} />}
          />
        </>
      );
  }
}
