import type { WhisperEventData } from "@atende/shared/contracts/http/messages";
import { useTranslation } from "react-i18next";
import { useRealtime } from "../../../../lib/realtime";
import { VOLUME, readPreference } from "../../../../lib/preferences";
import { toast } from "../../../../lib/toast";
import { playNotificationSound } from "../notification-sound";

/** How long a whisper's toast stays up. */
const WHISPER_TOAST_MS = 8_000;
const PREVIEW_CHARS = 140;

/** The attendant's side of a whisper (docs/adr/0102): a toast with who and what, and the chime at the saved volume. */
export function WhisperAlerts() {
  const { t } = useTranslation("supervisor");
  useRealtime<WhisperEventData>("whisper", (data) => {
    const body = data.message.body.length > PREVIEW_CHARS ? `${data.message.body.slice(0, PREVIEW_CHARS)}…` : data.message.body;
    toast.info(t("whisper.received", { name: data.from.name, body }), WHISPER_TOAST_MS);
    playNotificationSound(readPreference(VOLUME));
  });
  return null;
}
