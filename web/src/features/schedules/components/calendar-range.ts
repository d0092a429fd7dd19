import { addDays, endOfMonth, endOfWeek, startOfMonth, startOfWeek, type Locale } from "date-fns";
import { enUS, es, ptBR } from "date-fns/locale";

/** The weeks (Sunday first) covering `month`: what the calendar shows and asks the server for. */
export const calendarRange = (month: Date) => ({ from: startOfWeek(startOfMonth(month)), to: endOfWeek(endOfMonth(month)) });

export const calendarDays = (month: Date): Date[] => {
  const { from, to } = calendarRange(month);
  const days: Date[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
};

export const dateLocaleOf = (language: string): Locale => (language.startsWith("en") ? enUS : language.startsWith("es") ? es : ptBR);
