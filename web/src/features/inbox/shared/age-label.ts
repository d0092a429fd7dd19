/**
 * The age label of a ticket card (spec 1 section 4 "Age label on cards", refreshed every 30 s):
 * 3 to 10 minutes green; 30 to 59 minutes orange; 60 minutes or more in hours, red; 24 hours or more in days, red.
 * Other minute counts show without a colour.
 */
export type AgeLabel = { unit: "minutes" | "hours" | "days"; value: number; color: "green" | "orange" | "red" | "default" };

export const AGE_COLORS = { green: "#2e7d32", orange: "#ed6c02", red: "#d32f2f", default: "#757575" } as const;

export const ageLabel = (since: string | Date, now: Date = new Date()): AgeLabel => {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 60_000));
  if (minutes >= 24 * 60) return { unit: "days", value: Math.floor(minutes / (24 * 60)), color: "red" };
  if (minutes >= 60) return { unit: "hours", value: Math.floor(minutes / 60), color: "red" };
  if (minutes >= 30) return { unit: "minutes", value: minutes, color: "orange" };
  if (minutes >= 3 && minutes <= 10) return { unit: "minutes", value: minutes, color: "green" };
  return { unit: "minutes", value: minutes, color: "default" };
};
