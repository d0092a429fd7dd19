import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from "@mui/material";
import { format, isSameDay, isSameMonth, type Locale } from "date-fns";
import { useTranslation } from "react-i18next";
import type { ScheduleResponse } from "@atende/shared/contracts/http/schedules";
import { calendarDays, dateLocaleOf } from "./calendar-range";

/** Events shown per day before "+n more". */
const MAX_PER_DAY = 2;
/** Spec 3 section 2: a calendar of 500 height. */
export const CALENDAR_HEIGHT = 500;

const statusColor = { PENDENTE: "primary.main", ENVIADA: "success.main", ERRO: "error.main" } as const;

/** A month grid (weeks from Sunday) with the schedules placed at their send time; a day or an event can be clicked. */
export function MonthCalendar(props: {
  month: Date;
  events: ScheduleResponse[];
  onMonthChange: (month: Date) => void;
  onSelectDay: (day: Date) => void;
  onSelectEvent: (s: ScheduleResponse) => void;
}) {
  const { month, events } = props;
  const { t, i18n } = useTranslation("schedules");
  const locale: Locale = dateLocaleOf(i18n.language);
  const days = calendarDays(month);
  const weeks = days.length / 7;
  const today = new Date();

  return (
    <Paper variant="outlined" sx={{ height: CALENDAR_HEIGHT, display: "flex", flexDirection: "column", overflow: "hidden" }} data-testid="schedules-calendar">
      <Stack direction="row" alignItems="center" spacing={1} sx={{ px: 1, py: 0.5 }}>
        <IconButton aria-label={t("calendar.previous")} onClick={() => props.onMonthChange(new Date(month.getFullYear(), month.getMonth() - 1, 1))} size="small">
          <ChevronLeftIcon />
        </IconButton>
        <Button size="small" onClick={() => props.onMonthChange(new Date(today.getFullYear(), today.getMonth(), 1))}>
          {t("calendar.today")}
        </Button>
        <IconButton aria-label={t("calendar.next")} onClick={() => props.onMonthChange(new Date(month.getFullYear(), month.getMonth() + 1, 1))} size="small">
          <ChevronRightIcon />
        </IconButton>
        <Typography variant="subtitle1" component="h2" sx={{ flex: 1, textAlign: "center", textTransform: "capitalize" }} data-testid="calendar-month">
          {format(month, "LLLL yyyy", { locale })}
        </Typography>
      </Stack>
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(7, minmax(0, 1fr))", borderTop: 1, borderColor: "divider" }}>
        {days.slice(0, 7).map((d) => (
          <Typography key={d.toISOString()} variant="caption" sx={{ textAlign: "center", py: 0.25, textTransform: "capitalize", color: "text.secondary" }}>
            {format(d, "EEE", { locale })}
          </Typography>
        ))}
      </Box>
      <Box sx={{ flex: 1, display: "grid", gridTemplateColumns: "repeat(7, minmax(0, 1fr))", gridTemplateRows: `repeat(${weeks}, minmax(0, 1fr))`, minHeight: 0 }}>
        {days.map((day) => {
          const mine = events.filter((e) => isSameDay(new Date(e.sendAt), day));
          return (
            <Box
              key={day.toISOString()}
              role="gridcell"
              aria-label={format(day, "PPPP", { locale })}
              onClick={() => props.onSelectDay(day)}
              sx={{
                borderTop: 1,
                borderLeft: 1,
                borderColor: "divider",
                p: 0.25,
                overflow: "hidden",
                cursor: "pointer",
                bgcolor: isSameMonth(day, month) ? "background.paper" : "action.hover",
                "&:hover": { bgcolor: "action.selected" },
              }}
            >
              <Typography variant="caption" sx={{ fontWeight: isSameDay(day, today) ? 700 : 400, color: isSameDay(day, today) ? "primary.main" : isSameMonth(day, month) ? "text.primary" : "text.disabled" }}>
                {format(day, "d")}
              </Typography>
              {mine.slice(0, MAX_PER_DAY).map((s) => (
                <Tooltip key={s.id} title={s.body}>
                  <Box
                    data-testid="calendar-event"
                    onClick={(e) => {
                      e.stopPropagation();
                      props.onSelectEvent(s);
                    }}
                    sx={{
                      fontSize: 11,
                      lineHeight: 1.4,
                      px: 0.5,
                      mb: 0.25,
                      borderRadius: 0.5,
                      color: "common.white",
                      bgcolor: statusColor[s.status],
                      whiteSpace: "nowrap",
                      overflow: "hidden",
                      textOverflow: "ellipsis",
                    }}
                  >
                    {format(new Date(s.sendAt), "HH:mm")} {s.contact.name}
                  </Box>
                </Tooltip>
              ))}
              {mine.length > MAX_PER_DAY && (
                <Typography variant="caption" sx={{ color: "text.secondary", display: "block", lineHeight: 1.2 }}>
                  {t("calendar.more", { count: mine.length - MAX_PER_DAY })}
                </Typography>
              )}
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
