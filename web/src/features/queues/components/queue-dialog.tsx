import { useQuery } from "@tanstack/react-query";
import { Box, Button, Dialog, MenuItem, DialogActions, DialogContent, DialogTitle, Stack, Tab, Tabs, TextField, Typography } from "@mui/material";
import { useRef, useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DEFAULT_SCHEDULES, NAME_MAX, NAME_MIN, QUEUE_COLOR_MAX, QUEUE_COLOR_MIN } from "@atende/shared/constants/business";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import { useCompanySetting, useSession } from "../../../lib/session/session-context";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { type QueueForm, integrationsPickerOptions, promptsPickerOptions, useQueueMedia, useSaveQueue } from "../api/queues";
import { ColorPalette } from "./color-palette";
import { OptionLevel } from "./queue-options-tree";
import { useQueueDialogBlock } from "../../../lib/service-level-slots";
import { SchedulesEditor, isTime } from "../../../components/ui/schedules-editor";
import { QueueSlaFields, slaFormOf, slaPolicyOf } from "./queue-sla-fields";
import { FlowPicker } from "../../../components/ui/flow-picker";

/** Add or edit a queue: 'Dados da Fila' (fields, colour, media, chatbot tree) and, with schedule type 'queue', 'Horários de Atendimento'. */
export function QueueDialog({ queue, onClose }: { queue: QueueResponse | null; onClose: () => void }) {
  const Distribution = useQueueDialogBlock();
  const { t } = useTranslation("queues");
  const scheduleType = useCompanySetting("scheduleType");
  const { planFlags } = useSession();
  const prompts = useQuery({ ...promptsPickerOptions(), enabled: planFlags.useOpenAi });
  const integrations = useQuery({ ...integrationsPickerOptions(), enabled: planFlags.useIntegrations });
  const [tab, setTab] = useState(0);
  const [saved, setSaved] = useState<QueueResponse | null>(queue);
  const [form, setForm] = useState<QueueForm>({
    name: queue?.name ?? "",
    color: queue?.color ?? "",
    greetingMessage: queue?.greetingMessage ?? "",
    outOfHoursMessage: queue?.outOfHoursMessage ?? "",
    orderQueue: queue?.orderQueue ?? "",
    promptId: queue?.promptId ?? null,
    integrationId: queue?.integrationId ?? null,
    flowId: queue?.flowId ?? null,
    schedules: queue?.schedules?.length ? queue.schedules : DEFAULT_SCHEDULES,
  });
  const [sla, setSla] = useState(() => slaFormOf(queue?.sla));
  const save = useSaveQueue();
  const media = useQueueMedia();
  const file = useRef<HTMLInputElement>(null);
  const nameError = fieldError(form.name.trim().length < NAME_MIN ? ({ type: "zod", message: "Too Short!" } as FieldError) : form.name.length > NAME_MAX ? ({ type: "zod", message: "Too Long!" } as FieldError) : undefined);
  const colorError = form.color.length < QUEUE_COLOR_MIN || form.color.length > QUEUE_COLOR_MAX;
  const [touched, setTouched] = useState(false);

  const submit = () => {
    setTouched(true);
    if (nameError || colorError || !form.schedules?.every((s) => isTime(s.startTime) && isTime(s.endTime))) return;
    const input = { ...form, orderQueue: form.orderQueue === "" ? null : Number(form.orderQueue), sla: slaPolicyOf(sla) };
    save.mutate(
      { id: saved?.id, input },
      {
        onSuccess: (q) => {
          toast.success(t("saved"));
          if (saved) onClose();
          else setSaved(q);
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle>{saved ? t("edit") : t("add")}</DialogTitle>
      {scheduleType === "queue" && (
        <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ px: 3 }}>
          <Tab label={t("tabs.data")} />
          <Tab label={t("tabs.hours")} />
        </Tabs>
      )}
      <DialogContent dividers>
        {tab === 0 && (
          <Stack spacing={2}>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField label={t("fields.name")} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} error={touched && !!nameError} helperText={touched ? nameError : undefined} fullWidth autoFocus />
              <TextField label={t("fields.orderQueue")} type="number" value={form.orderQueue ?? ""} onChange={(e) => setForm({ ...form, orderQueue: e.target.value === "" ? "" : Number(e.target.value) })} sx={{ width: { sm: 200 } }} />
            </Stack>
            <Box>
              <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
                <Typography>{t("fields.color")}</Typography>
                <Box sx={{ width: 24, height: 24, borderRadius: 1, bgcolor: form.color || "transparent", border: "1px solid", borderColor: "divider" }} data-testid="color-swatch" />
                {touched && colorError && (
                  <Typography color="error" variant="caption">
                    {t("validation:Required")}
                  </Typography>
                )}
              </Stack>
              <ColorPalette label={t("fields.color")} value={form.color} onChange={(color) => setForm({ ...form, color })} />
            </Box>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              {planFlags.useOpenAi && (
                <TextField select fullWidth label={t("fields.prompt")} value={form.promptId ?? ""} onChange={(e) => setForm({ ...form, promptId: e.target.value === "" ? null : Number(e.target.value) })}>
                  <MenuItem value="">{t("none")}</MenuItem>
                  {(prompts.data ?? []).map((p) => (
                    <MenuItem key={p.id} value={p.id}>
                      {p.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {planFlags.useIntegrations && (
                <TextField select fullWidth label={t("fields.integration")} value={form.integrationId ?? ""} onChange={(e) => setForm({ ...form, integrationId: e.target.value === "" ? null : Number(e.target.value) })}>
                  <MenuItem value="">{t("none")}</MenuItem>
                  {(integrations.data ?? []).map((i) => (
                    <MenuItem key={i.id} value={i.id}>
                      {i.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
              {planFlags.useIntegrations && <FlowPicker value={form.flowId} onChange={(flowId) => setForm({ ...form, flowId })} />}
            </Stack>
            <TextField label={t("fields.greetingMessage")} value={form.greetingMessage} onChange={(e) => setForm({ ...form, greetingMessage: e.target.value })} multiline minRows={3} fullWidth />
            {scheduleType === "queue" && (
              <TextField label={t("fields.outOfHoursMessage")} value={form.outOfHoursMessage} onChange={(e) => setForm({ ...form, outOfHoursMessage: e.target.value })} multiline minRows={2} fullWidth />
            )}
            <QueueSlaFields value={sla} onChange={setSla} />
            {saved && (
              <Stack direction="row" spacing={1} alignItems="center">
                <Button variant="outlined" size="small" onClick={() => file.current?.click()}>
                  {t("media.attach")}
                </Button>
                {saved.mediaName && (
                  <>
                    <Typography variant="body2">{saved.mediaName}</Typography>
                    <Button size="small" color="error" onClick={() => media.mutate({ id: saved.id, file: null }, { onSuccess: (q) => setSaved(q) })}>
                      {t("media.remove")}
                    </Button>
                  </>
                )}
                <input
                  ref={file}
                  type="file"
                  hidden
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (f) media.mutate({ id: saved.id, file: f }, { onSuccess: (q) => setSaved(q) });
                    e.target.value = "";
                  }}
                />
              </Stack>
            )}
            {saved && Distribution && <Distribution queueId={saved.id} />}
            <Box>
              <Typography variant="subtitle1">{t("options.heading")}</Typography>
              {saved ? (
                <OptionLevel queueId={saved.id} parentId={null} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t("options.saveFirst")}
                </Typography>
              )}
            </Box>
          </Stack>
        )}
        {tab === 1 && (
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t("hoursHint")}
            </Typography>
            <SchedulesEditor value={form.schedules ?? DEFAULT_SCHEDULES} onChange={(schedules) => setForm({ ...form, schedules })} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {saved ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
