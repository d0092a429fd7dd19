import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/Delete";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from "@mui/material";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CampaignView } from "@atende/shared/contracts/http/campaigns";
import { CAMPAIGN_VARIANTS, campaignSchema, canEditCampaignMessages, isCampaignEditable, NO_TAG_LIST } from "@atende/shared/domain/campaigns/campaign";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import { CampaignTemplateField } from "../../../components/cloud-api/campaign-template-field";
import { toast } from "../../../lib/toast";
import { useCampaignMedia, useCampaignPickers, useSaveCampaign } from "../api/campaigns";
import { campaignErrorText } from "./campaign-error";

type Variant = (typeof CAMPAIGN_VARIANTS)[number];
type Form = {
  name: string;
  confirmation: boolean;
  contactListId: number | "";
  whatsappId: number | "";
  scheduledAt: string;
  messages: Record<Variant, string>;
  confirmations: Record<Variant, string>;
  /** Cloud API connections: the approved template sent instead of the messages */
  template: TemplateSend | null;
};

/** "2026-05-01T10:30" in the browser's zone, for a datetime-local input. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

const initialForm = (r: CampaignView | null): Form => ({
  name: r?.name ?? "",
  confirmation: r?.confirmation ?? false,
  contactListId: r?.contactListId ?? "",
  whatsappId: r?.whatsappId ?? "",
  scheduledAt: toLocalInput(r?.scheduledAt ?? null),
  messages: Object.fromEntries(CAMPAIGN_VARIANTS.map((n) => [n, r?.[`message${n}`] ?? ""])) as Record<Variant, string>,
  confirmations: Object.fromEntries(CAMPAIGN_VARIANTS.map((n) => [n, r?.[`confirmationMessage${n}`] ?? ""])) as Record<Variant, string>,
  template: r?.template ?? null,
});

/**
 * Add or edit a campaign (spec 3 sections 4, 5): every field while INATIVA or PROGRAMADA more than an hour ahead;
 * a CANCELADA campaign only its messages (and attachment); otherwise read-only. Five message tabs, each with its
 * confirmation message when confirmation is on; placeholders help; the attachment is uploaded after saving.
 */
export function CampaignDialog({ record, onClose, now = () => new Date() }: { record: CampaignView | null; onClose: () => void; now?: () => Date }) {
  const { t } = useTranslation("campaigns");
  const [form, setForm] = useState<Form>(() => initialForm(record));
  const [tab, setTab] = useState<Variant>(1);
  const [touched, setTouched] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState(record?.mediaName ?? null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pickers = useCampaignPickers();
  const save = useSaveCampaign();
  const media = useCampaignMedia();

  const editable = !record || isCampaignEditable(record, now());
  // a Cloud API connection: approved templates only (no free messages, no confirmation, no attachment)
  const cloudApi = form.whatsappId !== "" && pickers.data?.whatsapps.find((w) => w.id === form.whatsappId)?.provider === "cloudapi";
  const messagesEditable = !record || canEditCampaignMessages(record, now());

  const input = {
    name: form.name,
    confirmation: cloudApi ? false : form.confirmation,
    template: cloudApi ? form.template : null,
    contactListId: form.contactListId === "" ? null : form.contactListId,
    whatsappId: form.whatsappId === "" ? null : form.whatsappId,
    scheduledAt: form.scheduledAt ? new Date(form.scheduledAt).toISOString() : null,
    tagListId: record?.tagListId ?? NO_TAG_LIST,
    fileListId: record?.fileListId ?? null,
    ...Object.fromEntries(CAMPAIGN_VARIANTS.flatMap((n) => [[`message${n}`, cloudApi ? "" : form.messages[n]], [`confirmationMessage${n}`, cloudApi ? "" : form.confirmations[n]]])),
  };
  const parsed = campaignSchema.safeParse(input);
  const nameIssue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === "name")?.message;
  const nameError = touched && nameIssue ? t(nameIssue, { ns: "validation" }) : undefined;

  const submit = () => {
    setTouched(true);
    if (!parsed.success) return;
    save.mutate(
      { id: record?.id, input: parsed.data },
      {
        onSuccess: async (saved) => {
          if (file) {
            try {
              await media.mutateAsync({ id: saved.id, file });
            } catch (err) {
              toast.error(campaignErrorText(t, err));
            }
          }
          toast.success(t("saved"));
          onClose();
        },
        onError: (err) => toast.error(campaignErrorText(t, err)),
      },
    );
  };

  const removeAttachment = () => {
    if (file) {
      setFile(null);
      return;
    }
    if (!record) return;
    media.mutate(
      { id: record.id, file: null },
      { onSuccess: () => setMediaName(null), onError: (err) => toast.error(campaignErrorText(t, err)) },
    );
  };
  const attachmentName = file?.name ?? mediaName;

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{record ? (messagesEditable ? t("edit") : t("view")) : t("add")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {record && !messagesEditable && <Alert severity="info">{t("readOnly")}</Alert>}
          {record && messagesEditable && !editable && <Alert severity="info">{t("messagesOnly")}</Alert>}
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              label={t("fields.name")}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              onBlur={() => setTouched(true)}
              error={!!nameError}
              helperText={nameError}
              disabled={!editable}
              required
              fullWidth
              autoFocus
            />
            {!cloudApi && (
              <FormControlLabel
                control={<Switch checked={form.confirmation} onChange={(e) => setForm({ ...form, confirmation: e.target.checked })} disabled={!editable} />}
                label={t("fields.confirmation")}
              />
            )}
          </Stack>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              select
              label={t("fields.contactList")}
              value={form.contactListId}
              onChange={(e) => setForm({ ...form, contactListId: e.target.value === "" ? "" : Number(e.target.value) })}
              disabled={!editable}
              fullWidth
            >
              <MenuItem value="">{t("none")}</MenuItem>
              {(pickers.data?.lists ?? []).map((l) => (
                <MenuItem key={l.id} value={l.id}>
                  {l.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label={t("fields.tagList")} value={NO_TAG_LIST} disabled fullWidth>
              <MenuItem value={NO_TAG_LIST}>{t("none")}</MenuItem>
            </TextField>
            <TextField
              select
              label={t("fields.whatsapp")}
              value={form.whatsappId}
              onChange={(e) => setForm({ ...form, whatsappId: e.target.value === "" ? "" : Number(e.target.value) })}
              disabled={!editable}
              fullWidth
            >
              <MenuItem value="">{t("none")}</MenuItem>
              {(pickers.data?.whatsapps ?? []).map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t("fields.scheduledAt")}
              type="datetime-local"
              value={form.scheduledAt}
              onChange={(e) => setForm({ ...form, scheduledAt: e.target.value })}
              disabled={!editable}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          {cloudApi && form.whatsappId !== "" ? (
            <CampaignTemplateField whatsappId={form.whatsappId} value={form.template} onChange={(template) => setForm({ ...form, template })} disabled={!messagesEditable} />
          ) : (
            <>
            <Tabs value={tab} onChange={(_, v: Variant) => setTab(v)} variant="scrollable" aria-label={t("messagesTabs")}>
              {CAMPAIGN_VARIANTS.map((n) => (
                <Tab key={n} value={n} label={t("messageTab", { n })} />
              ))}
            </Tabs>
            <Typography variant="body2" color="text.secondary">
              {t("placeholdersHelp")}
            </Typography>
            <TextField
              label={t("fields.message", { n: tab })}
              value={form.messages[tab]}
              onChange={(e) => setForm({ ...form, messages: { ...form.messages, [tab]: e.target.value } })}
              disabled={!messagesEditable}
              multiline
              minRows={4}
              fullWidth
            />
            {form.confirmation && (
              <TextField
                label={t("fields.confirmationMessage", { n: tab })}
                value={form.confirmations[tab]}
                onChange={(e) => setForm({ ...form, confirmations: { ...form.confirmations, [tab]: e.target.value } })}
                disabled={!messagesEditable}
                multiline
                minRows={3}
                fullWidth
              />
            )}
            <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
              <input
                ref={fileInput}
                type="file"
                hidden
                data-testid="campaign-file"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  e.target.value = "";
                }}
              />
              {messagesEditable && (
                <Button startIcon={<AttachFileIcon />} onClick={() => fileInput.current?.click()}>
                  {t("attach")}
                </Button>
              )}
              {attachmentName && (
                <>
                  <Typography variant="body2">{attachmentName}</Typography>
                  {messagesEditable && (
                    <IconButton size="small" aria-label={t("removeAttachment")} onClick={removeAttachment} disabled={media.isPending}>
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  )}
                </>
              )}
            </Box>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{messagesEditable ? t("common:cancel") : t("common:close")}</Button>
        {messagesEditable && (
          <Button variant="contained" onClick={submit} disabled={save.isPending}>
            {record ? t("common:save") : t("common:add")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
