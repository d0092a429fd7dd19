import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Tab, Tabs, TextField, Typography } from "@mui/material";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_SCHEDULES, NAME_MAX, NAME_MIN, QUEUE_COLOR_MAX, QUEUE_COLOR_MIN } from "@atende/shared/constants/business";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import { useCompanySetting } from "../../../app/session/session-context";
import { toast } from "../../../lib/toast";
import { type QueueForm, useQueueMedia, useSaveQueue } from "../api/queues";
import { ColorPalette } from "./color-palette";
import { OptionLevel } from "./queue-options-tree";
import { SchedulesEditor, isTime } from "./schedules-editor";

/** Add or edit a queue: 'Dados da Fila' (fields, colour, media, chatbot tree) and, with schedule type 'queue', 'Horários de Atendimento'. */
export function QueueDialog({ queue, onClose }: { queue: QueueResponse | null; onClose: () => void }) {
  const { t } = useTranslation("queues");
  const scheduleType = useCompanySetting("scheduleType");
  const [tab, setTab] = useState(0);
  const [saved, setSaved] = useState<QueueResponse | null>(queue);
  const [form, setForm] = useState<QueueForm>({
    name: queue?.name ?? "",
    color: queue?.color ?? "",
    greetingMessage: queue?.greetingMessage ?? "",
    outOfHoursMessage: queue?.outOfHoursMessage ?? "",
    orderQueue: queue?.orderQueue ?? "",
    schedules: queue?.schedules?.length ? queue.schedules : DEFAULT_SCHEDULES,
  });
  const save = useSaveQueue();
  const media = useQueueMedia();
  const file = useRef<HTMLInputElement>(null);
  const nameError = form.name.trim().length < NAME_MIN ? t("validation:Too Short!") : form.name.length > NAME_MAX ? t("validation:Too Long!") : undefined;
  const colorError = form.color.length < QUEUE_COLOR_MIN || form.color.length > QUEUE_COLOR_MAX;
  const [touched, setTouched] = useState(false);

  const submit = () => {
    setTouched(true);
    if (nameError || colorError || !form.schedules?.every((s) => isTime(s.startTime) && isTime(s.endTime))) return;
    const input = { ...form, orderQueue: form.orderQueue === "" ? null : Number(form.orderQueue) };
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
            <TextField label={t("fields.greetingMessage")} value={form.greetingMessage} onChange={(e) => setForm({ ...form, greetingMessage: e.target.value })} multiline minRows={3} fullWidth />
            {scheduleType === "queue" && (
              <TextField label={t("fields.outOfHoursMessage")} value={form.outOfHoursMessage} onChange={(e) => setForm({ ...form, outOfHoursMessage: e.target.value })} multiline minRows={2} fullWidth />
            )}
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
