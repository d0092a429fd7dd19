import type { FieldError } from "react-hook-form";
import i18n from "./i18n";

/**
 * Zod messages from the shared schemas ("Required", "Too Short!", "Invalid email" ...) translated through
 * locales/<lng>/validation.json; a message without a translation shows as is.
 * `<TextField error={!!errors.name} helperText={fieldError(errors.name)} />`
 */
export const fieldError = (error: FieldError | undefined): string | undefined => {
  if (!error) return undefined;
  const message = error.message ?? "";
  if (!message) return i18n.t("validation:invalid");
  return i18n.t(`validation:${message}`, { defaultValue: message, keySeparator: false, nsSeparator: ":" });
};
