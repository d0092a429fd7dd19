import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  InputLabel,
  ListItemText,
  MenuItem,
  OutlinedInput,
  Select,
  Stack,
  Switch,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tabs,
  TextField,
} from "@mui/material";
import { useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { WHATSAPP_FORM_DEFAULTS, whatsappFormSchema, type WhatsappForm } from "@atende/shared/domain/whatsapps/whatsapp-form";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { useQueueList } from "../../../lib/pickers";
import { usePickList, useSaveWhatsapp, useWhatsapp } from "../api/whatsapps";
import { CLOUD_API_FORM_DEFAULTS, CloudApiConnectionFields, type CloudApiFormValues } from "../../../components/cloud-api/cloud-api-connection-fields";
import { CHANNEL_FORMS, channelFormOf, type ChannelFormValues } from "../../../components/channels/channel-forms";
import { ChannelIcon } from "../../../components/channels/channel-icon";
import { channelOfProvider } from "@atende/shared/domain/channels/channel-providers";

const TABS = ["general", "messages", "assessments", "integrations", "hours"] as const;

const formOf = (w: WhatsappResponse | null): WhatsappForm =>
  w
    ? {
        name: w.name,
        isDefault: w.isDefault,
        greetingMessage: w.greetingMessage,
        complationMessage: w.complationMessage,
        outOfHoursMessage: w.outOfHoursMessage,
        ratingMessage: w.ratingMessage,
        expiresInactiveMessage: w.expiresInactiveMessage,
        provider: w.provider,
        expiresTicket: w.expiresTicket,
        timeUseBotQueues: w.timeUseBotQueues,
        maxUseBotQueues: w.maxUseBotQueues,
        timeToTransfer: w.timeToTransfer,
        transferQueueId: w.transferQueueId,
        promptId: w.promptId,
        integrationId: w.integrationId,
        flowId: w.flowId ?? null,
        queueIds: w.queueIds,
        schedules: w.schedules.length ? w.schedules : DEFAULT_SCHEDULES,
      }
    : { ...WHATSAPP_FORM_DEFAULTS, schedules: DEFAULT_SCHEDULES };

/** Add or edit a connection: tabs general, messages, assessments, integrations, working hours (spec 2 section 2). */
const cloudFormOf = (w: WhatsappResponse | null | undefined): CloudApiFormValues =>
  w?.cloudApi
    ? {
        phoneNumberId: w.cloudApi.phoneNumberId,
        wabaId: w.cloudApi.wabaId,
        accessToken: w.cloudApi.accessToken,
        appSecret: w.cloudApi.appSecret,
        graphApiUrl: w.cloudApi.graphApiUrl,
        throughputPerSecond: String(w.cloudApi.throughputPerSecond),
        ratingTemplate: w.cloudApi.ratingTemplate,
        inactivityTemplate: w.cloudApi.inactivityTemplate,
        transferTemplate: w.cloudApi.transferTemplate,
      }
    : CLOUD_API_FORM_DEFAULTS;

export function WhatsappDialog({ whatsapp: initial, onClose }: { whatsapp: WhatsappResponse | null; onClose: () => void }) {
  const { t } = useTranslation("connections");
  const tc = useTranslation("cloudApi").t;
  const tch = useTranslation("channels").t;
  const [tab, setTab] = useState(0);
  // a new Cloud API connection stays open once saved: its webhook URL and verify token are to be copied
  const [saved, setSaved] = useState<WhatsappResponse | null>(initial);
  const detail = useWhatsapp(saved?.provider === "cloudapi" || channelFormOf(saved?.provider) ? (saved?.id ?? null) : null);
  const whatsapp = detail.data ?? saved;
  const [form, setForm] = useState<WhatsappForm>(() => formOf(initial));
  const [cloud, setCloud] = useState<CloudApiFormValues>(() => cloudFormOf(initial));
  const [cloudLoaded, setCloudLoaded] = useState(Boolean(initial?.cloudApi));
  if (!cloudLoaded && detail.data?.cloudApi) {
    setCloudLoaded(true);
    setCloud(cloudFormOf(detail.data));
  }
  const isCloud = form.provider === "cloudapi";
  // another channel's own fields (docs/adr/0088): the entry of the provider picked, its values kept apart
  const channelForm = channelFormOf(form.provider);
  const channelView = detail.data?.channelSettings ?? saved?.channelSettings ?? null;
  const [channelValues, setChannelValues] = useState<ChannelFormValues>(() => {
    const entry = channelFormOf(initial?.provider);
    return entry && initial?.channelSettings ? entry.fromView(initial.channelSettings) : (entry?.defaults ?? {});
  });
  const [channelLoaded, setChannelLoaded] = useState(Boolean(initial?.channelSettings));
  if (!channelLoaded && detail.data?.channelSettings && channelForm) {
    setChannelLoaded(true);
    setChannelValues(channelForm.fromView(detail.data.channelSettings));
  }
  const [nameError, setNameError] = useState<string | undefined>();
  const save = useSaveWhatsapp();
  const queues = useQueueList();
  const prompts = usePickList("/prompt");
  const integrations = usePickList("/queueIntegration");
  const set = <K extends keyof WhatsappForm>(key: K, value: WhatsappForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const num = (v: string) => (v === "" ? null : Number(v));

  const submit = () => {
    const parsed = whatsappFormSchema.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues.find((i) => i.path[0] === "name");
      setNameError(issue ? fieldError({ type: "zod", message: issue.message } as FieldError) : undefined);
      setTab(0);
      return;
    }
    setNameError(undefined);
    const input = isCloud ? { ...parsed.data, ...cloud, graphApiUrl: cloud.graphApiUrl || undefined } : channelForm ? { ...parsed.data, ...channelValues } : parsed.data;
    save.mutate(
      { id: whatsapp?.id, input },
      {
        onSuccess: (w) => {
          toast.success(t("saved"));
          if (isCloud && !whatsapp) {
            setSaved(w);
            setCloud(cloudFormOf(w));
            setCloudLoaded(true);
          } else if (channelForm?.keepOpenAfterCreate && !whatsapp) {
            setSaved(w);
            if (w.channelSettings) setChannelValues(channelForm.fromView(w.channelSettings));
            setChannelLoaded(true);
          } else onClose();
        },
      },
    );
  };

  const text = (key: "greetingMessage" | "complationMessage" | "outOfHoursMessage" | "ratingMessage" | "expiresInactiveMessage") => (
    <TextField label={t(`fields.${key}`)} value={form[key]} onChange={(e) => set(key, e.target.value)} multiline minRows={3} fullWidth inputProps={{ "data-testid": `field-${key}` }} />
  );
  const count = (key: "expiresTicket" | "maxUseBotQueues" | "timeUseBotQueues" | "timeToTransfer") => (
    <TextField label={t(`fields.${key}`)} type="number" value={form[key] ?? ""} onChange={(e) => set(key, (key === "timeToTransfer" ? num(e.target.value) : Number(e.target.value || 0)) as never)} fullWidth />
  );
  const pick = (key: "promptId" | "integrationId" | "transferQueueId", items: { id: number; name: string }[]) => (
    <FormControl fullWidth>
      <InputLabel>{t(`fields.${key}`)}</InputLabel>
      <Select label={t(`fields.${key}`)} value={form[key] ?? ""} onChange={(e) => set(key, num(String(e.target.value)))}>
        <MenuItem value="">{t("none")}</MenuItem>
        {items.map((i) => (
          <MenuItem key={i.id} value={i.id}>
            {i.name}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth scroll="paper" data-testid="whatsapp-dialog">
      <DialogTitle>{whatsapp ? t("edit") : t("add")}</DialogTitle>
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" sx={{ px: 3 }}>
        {TABS.map((k) => (
          <Tab key={k} label={t(`tabs.${k}`)} />
        ))}
      </Tabs>
      <DialogContent dividers>
        {tab === 0 && (
          <Stack spacing={2}>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2} alignItems="center">
              <TextField label={t("fields.name")} value={form.name} onChange={(e) => set("name", e.target.value)} error={!!nameError} helperText={nameError} fullWidth autoFocus inputProps={{ "data-testid": "field-name" }} />
              <FormControlLabel control={<Switch checked={form.isDefault} onChange={(e) => set("isDefault", e.target.checked)} />} label={t("fields.isDefault")} />
            </Stack>
            <TextField
              select
              label={tc("provider.label")}
              value={isCloud ? "cloudapi" : channelForm ? channelForm.provider : "beta"}
              onChange={(e) => {
                set("provider", e.target.value);
                setChannelValues(channelFormOf(e.target.value)?.defaults ?? {});
              }}
              disabled={Boolean(whatsapp)}
              fullWidth
              SelectProps={{ SelectDisplayProps: { "data-testid": "field-provider" } as object }}
            >
              <MenuItem value="beta">
                <ChannelIcon channel="whatsapp" fontSize="small" sx={{ mr: 1, verticalAlign: "middle" }} />
                {tc("provider.beta")}
              </MenuItem>
              <MenuItem value="cloudapi">
                <ChannelIcon channel="cloudapi" fontSize="small" sx={{ mr: 1, verticalAlign: "middle" }} />
                {tc("provider.cloudapi")}
              </MenuItem>
              {CHANNEL_FORMS.map((f) => (
                <MenuItem key={f.provider} value={f.provider} data-testid={`provider-${f.provider}`}>
                  <ChannelIcon channel={channelOfProvider(f.provider)} fontSize="small" sx={{ mr: 1, verticalAlign: "middle" }} />
                  {tch(`name.${f.provider}`)}
                </MenuItem>
              ))}
            </TextField>
            {channelForm && <channelForm.Fields value={channelValues} onChange={setChannelValues} saved={channelView} />}
            {isCloud && (
              <CloudApiConnectionFields
                value={cloud}
                onChange={setCloud}
                whatsappId={whatsapp?.id}
                saved={whatsapp?.cloudApi ? { webhookUrl: whatsapp.cloudApi.webhookUrl, verifyToken: whatsapp.cloudApi.verifyToken, phoneInfo: whatsapp.cloudApi.phoneInfo } : null}
              />
            )}
            <FormControl fullWidth>
              <InputLabel>{t("fields.queues")}</InputLabel>
              <Select
                multiple
                value={form.queueIds}
                onChange={(e) => set("queueIds", (typeof e.target.value === "string" ? [] : e.target.value).map(Number))}
                input={<OutlinedInput label={t("fields.queues")} />}
                renderValue={(ids) => (queues.data ?? []).filter((q) => ids.includes(q.id)).map((q) => q.name).join(", ")}
              >
                {(queues.data ?? []).map((q) => (
                  <MenuItem key={q.id} value={q.id}>
                    <Checkbox checked={form.queueIds.includes(q.id)} />
                    <ListItemText primary={q.name} />
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              {pick("transferQueueId", queues.data ?? [])}
              {count("timeToTransfer")}
            </Stack>
          </Stack>
        )}
        {tab === 1 && (
          <Stack spacing={2}>
            {text("greetingMessage")}
            {text("complationMessage")}
            {text("outOfHoursMessage")}
            {text("expiresInactiveMessage")}
            {count("expiresTicket")}
          </Stack>
        )}
        {tab === 2 && (
          <Stack spacing={2}>
            {text("ratingMessage")}
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              {count("maxUseBotQueues")}
              {count("timeUseBotQueues")}
            </Stack>
          </Stack>
        )}
        {tab === 3 && (
          <Stack spacing={2}>
            {pick("promptId", prompts.data ?? [])}
            {pick("integrationId", integrations.data ?? [])}
          </Stack>
        )}
        {tab === 4 && (
          <Table size="small">
            <TableBody>
              {form.schedules.map((s, i) => (
                <TableRow key={s.weekdayEn}>
                  <TableCell>{t(`weekdays.${s.weekdayEn}`)}</TableCell>
                  {(["startTime", "endTime"] as const).map((k) => (
                    <TableCell key={k}>
                      <TextField
                        size="small"
                        type="time"
                        label={t(`fields.${k}`)}
                        value={s[k]}
                        onChange={(e) => set("schedules", form.schedules.map((x, j) => (j === i ? { ...x, [k]: e.target.value } : x)))}
                        InputLabelProps={{ shrink: true }}
                      />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="save-whatsapp">
          {whatsapp ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
