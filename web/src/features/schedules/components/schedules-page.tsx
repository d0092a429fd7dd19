import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Chip, Stack, TextField, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { format, isSameMonth } from "date-fns";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { errorMessage } from "../../../lib/toast-error";
import { contactOptions } from "../../../lib/pickers";
import { useConnections } from "../../../lib/pickers";
import { useDebounced } from "../../../hooks/use-debounced";
import { invalidateSchedules, useDeleteSchedule, useScheduleRange } from "../api/schedules";
import { calendarRange, dateLocaleOf } from "./calendar-range";
import { MonthCalendar } from "./month-calendar";
import { ScheduleDialog } from "./schedule-dialog";
import { ScheduleStatusChip } from "./schedule-status-chip";

type Editing = { record: ScheduleResponse | null; contact?: ContactView | null; day?: Date | null };

/**
 * /schedules: a month calendar with the scheduled messages at their send time, search, add/edit dialog, delete after
 * confirmation, and the month's list with status. `?contactId=` opens the add dialog for that contact. Live via `schedule`.
 * Attendants see their own schedules; admins the whole company's (the server decides).
 */
export function SchedulesPage() {
  const { t, i18n } = useTranslation("schedules");
  const qc = useQueryClient();
  const locale = dateLocaleOf(i18n.language);
  const [month, setMonth] = useState(() => new Date(new Date().getFullYear(), new Date().getMonth(), 1));
  const [text, setText] = useState("");
  // spec 3 section 5: search text is lower-cased
  const search = useDebounced(text.trim().toLowerCase(), DEBOUNCE_SEARCH_MS);
  const range = calendarRange(month);
  const query = useScheduleRange(range.from.toISOString(), range.to.toISOString(), search);
  const events = useMemo(() => query.data ?? [], [query.data]);
  const monthList = useMemo(() => events.filter((s) => isSameMonth(new Date(s.sendAt), month)), [events, month]);
  const connections = useConnections();
  const connectionName = (id: number | null) => (id === null ? t("defaultConnection") : ((connections.data ?? []).find((w) => w.id === id)?.name ?? `#${id}`));
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<Editing | null>(null);
  useRealtime("schedule", () => void invalidateSchedules(qc));

  // spec 3 section 2: ?contactId= opens the add dialog with that contact chosen
  const [params, setParams] = useSearchParams();
  const contactId = Number(params.get("contactId")) || 0;
  const preset = useQuery({ ...contactOptions(contactId), enabled: contactId > 0 });
  useEffect(() => {
    if (!contactId || (!preset.data && !preset.isError)) return;
    setEditing({ record: null, contact: preset.data ?? null });
    setParams(
      (p) => {
        p.delete("contactId");
        return p;
      },
      { replace: true },
    );
  }, [contactId, preset.data, preset.isError, setParams]);

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, boxSizing: "border-box" }}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
        <TextField size="small" placeholder={t("search")} value={text} onChange={(e) => setText(e.target.value)} inputProps={{ "aria-label": t("search") }} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ record: null })}>
          {t("add")}
        </Button>
      </Stack>
      <MonthCalendar
        month={month}
        events={events}
        onMonthChange={setMonth}
        onSelectDay={(day) => setEditing({ record: null, day })}
        onSelectEvent={(s) => (s.status === "ENVIADA" ? undefined : setEditing({ record: s }))}
      />
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2, mb: 1 }}>
        {t("listTitle", { month: format(month, "LLLL yyyy", { locale }) })}
      </Typography>
      <DataTable
        layout="flow"
        columns={[
          { header: t("fields.sendAt"), sx: { whiteSpace: "nowrap" }, cell: (s) => format(new Date(s.sendAt), "Pp", { locale }) },
          { header: t("fields.contact"), cell: (s) => s.contact.name },
          {
            header: t("fields.body"),
            sx: { maxWidth: 320, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
            cell: (s) =>
              s.template ? (
                <>
                  <Chip size="small" variant="outlined" label={t("template.templateChip")} data-testid="schedule-template-chip" sx={{ mr: 0.5 }} />
                  {s.body}
                </>
              ) : (
                s.body
              ),
          },
          { header: t("fields.connection"), cell: (s) => connectionName(s.whatsappId) },
          {
            header: t("fields.status"),
            cell: (s) => (
              <>
                <ScheduleStatusChip schedule={s} />
                {s.status === "ERRO" && s.errorMessage && (
                  <Typography variant="caption" color="error" sx={{ display: "block" }}>
                    {errorMessage(s.errorMessage)}
                  </Typography>
                )}
              </>
            ),
          },
        ]}
        rows={monthList}
        rowTestId="schedule-row"
        empty={query.isLoading ? undefined : t("empty")}
        onEdit={(s) => setEditing({ record: s })}
        canEdit={(s) => s.status !== "ENVIADA"}
        remove={{ mutation: remove, title: (s) => t("deleteConfirm.title", { name: s.contact.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <ScheduleDialog record={editing.record} contact={editing.contact} day={editing.day} onClose={() => setEditing(null)} />}
    </Box>
  );
}
