import { ApiError } from "./api-client";
import i18n from "./i18n";
import { toast } from "./toast";

/**
 * The text for a server error (spec 1 section 8): a known code -> its translation (locales/<lng>/errors.json);
 * an unknown code or plain text -> that raw text; nothing -> 'An error occurred!' (translated). A text may name the
 * error's data (`{{data.max}}`): the server's figure, never a copy of it in the locale files.
 */
export const errorMessage = (err: unknown): string => {
  const raw = err instanceof ApiError ? err.code : err instanceof Error ? err.message : typeof err === "string" ? err : undefined;
  if (!raw) return i18n.t("errors:generic");
  const key = `errors:${raw}`;
  if (!i18n.exists(key)) return raw;
  const data = err instanceof ApiError ? err.data : undefined;
  return data && typeof data === "object" ? i18n.t(key, { data }) : i18n.t(key);
};

/** Shows a server error as a toast for 2000 ms. */
export const toastError = (err: unknown) => {
  toast.error(errorMessage(err));
};
