import { formatDate } from "@atende/shared/domain/format/dates";

/** True when a day separator goes before `current` (first message, or another calendar day than `previous`). */
export const startsNewDay = (previous: string | undefined, current: string): boolean =>
  previous === undefined || formatDate(previous) !== formatDate(current);

/** The separator text: dd/MM/yyyy. */
export const dayLabel = (value: string) => formatDate(value);
