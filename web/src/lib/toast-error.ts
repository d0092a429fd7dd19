import { ApiError } from "./api-client";
import i18n from "./i18n";
import { toast } from "./toast";

/**
 * The text for a server error (spec 1 section 8): a known code -> its translation (locales/<lng>/errors.json);
 * an unknown code or plain text -> that raw text; nothing -> 'An error occurred!' (translated).
 */
export const errorMessage = (err: unknown): string => {
  const raw = err instanceof ApiError ? err.code : err instanceof Error ? err.message : typeof err === "string" ? err : undefined;
  if (!raw) return i18n.t("errors:generic");
  const key = `errors:${raw}`;
  return i18n.exists(key) ? i18n.t(key) : raw;
};

/** Shows a server error as a toast for 2000 ms. */
export const toastError = (err: unknown) => {
  toast.error(errorMessage(err));
};
