import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import {
  Box,
  Button,
  CircularProgress,
  FormControl,
  IconButton,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  addCampaignVariable,
  type CampaignSettings,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
} from "@atende/shared/domain/campaign-settings/campaign-settings";
import { toast } from "../../../lib/toast";
import { useCampaignSettings, useSaveCampaignSettings } from "../api/campaign-settings";

type IntervalField = "messageInterval" | "longerIntervalAfter" | "greaterInterval";
const INTERVALS: { field: IntervalField; options: readonly number[] }[] = [
  { field: "messageInterval", options: MESSAGE_INTERVAL_OPTIONS },
  { field: "longerIntervalAfter", options: LONGER_INTERVAL_OPTIONS },
  { field: "greaterInterval", options: LONGER_INTERVAL_OPTIONS },
];

/** The form, once the stored settings are loaded (its state starts from them). */
function CampaignSettingsForm({ initial }: { initial: CampaignSettings }) {
  const { t } = useTranslation("campaignSettings");
  const [settings, setSettings] = useState(initial);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const save = useSaveCampaignSettings();

  const addVariable = () => {
    if (!key.trim()) return void toast.error(t("variables.keyRequired"));
    const next = addCampaignVariable(settings.variables, { key, value });
    if (!next) return void toast.error(t("variables.duplicate"));
    setSettings({ ...settings, variables: next });
    setKey("");
    setValue("");
  };

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t("intervals.title")}
        </Typography>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
          {INTERVALS.map(({ field, options }) => (
            <FormControl key={field} fullWidth size="small">
              <InputLabel id={`${field}-label`}>{t(`intervals.${field}`)}</InputLabel>
              <Select
                labelId={`${field}-label`}
                label={t(`intervals.${field}`)}
                value={settings[field]}
                onChange={(e) => setSettings({ ...settings, [field]: Number(e.target.value) })}
              >
                {options.map((o) => (
                  <MenuItem key={o} value={o}>
                    {o === 0 ? t("intervals.none") : t("intervals.seconds", { count: o })}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          ))}
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("variables.title")}
        </Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mb: 1 }}>
          <TextField size="small" label={t("variables.key")} value={key} onChange={(e) => setKey(e.target.value)} />
          <TextField size="small" label={t("variables.value")} value={value} onChange={(e) => setValue(e.target.value)} sx={{ flex: 1 }} />
          <Button startIcon={<AddIcon />} onClick={addVariable}>
            {t("variables.add")}
          </Button>
        </Stack>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("variables.key")}</TableCell>
              <TableCell>{t("variables.value")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {settings.variables.map((v) => (
              <TableRow key={v.key} data-testid="variable-row">
                <TableCell>{`{${v.key}}`}</TableCell>
                <TableCell>{v.value}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("variables.remove")}>
                    <IconButton size="small" aria-label={t("variables.remove")} onClick={() => setSettings({ ...settings, variables: settings.variables.filter((x) => x.key !== v.key) })}>
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {settings.variables.length === 0 && (
              <TableRow>
                <TableCell colSpan={3}>
                  <Typography color="text.secondary">{t("variables.empty")}</Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      <Box>
        <Button variant="contained" disabled={save.isPending} onClick={() => save.mutate(settings, { onSuccess: () => void toast.success(t("saved")) })}>
          {t("save")}
        </Button>
      </Box>
    </Stack>
  );
}

/** /campaigns-config (admins, plan with campaigns): pacing intervals and campaign variables. */
export function CampaignSettingsPage() {
  const { t } = useTranslation("campaignSettings");
  const query = useCampaignSettings();
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title")}
      </Typography>
      {query.data ? <CampaignSettingsForm initial={query.data} /> : <CircularProgress size={24} />}
    </Box>
  );
}
