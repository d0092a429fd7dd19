import type { TFunction } from "i18next";
import { ApiError } from "../../../lib/api-client";
import { errorMessage } from "../../../lib/toast-error";

/** A campaign call's error: the campaign codes are translated here, every other code as everywhere else. */
export const campaignErrorText = (t: TFunction, err: unknown): string => {
  const code = err instanceof ApiError ? err.code : undefined;
  if (code === "ERR_CAMPAIGN_NOT_EDITABLE" || code === "ERR_CAMPAIGN_INVALID_STATUS") return t(`campaigns:errors.${code}`);
  return errorMessage(err);
};
