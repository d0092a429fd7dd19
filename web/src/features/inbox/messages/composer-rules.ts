import { AUDIO_MIN_BYTES, IMAGE_QUALITY, QUICK_MESSAGE_LABEL_MAX } from "@atende/shared/constants/business";
import type { QuickMessageLike } from "../../../lib/pickers";
import type { Preference } from "../../../lib/preferences";

/** Composer rules of spec 1 sections 5 and 9. */

/** Empty or blank text is never sent. */
export const isSendable = (text: string) => text.trim().length > 0;

/** Suggestions show when the input starts with a slash and has more than one character. */
export const quickMessageQuery = (input: string): string | null => (input.startsWith("/") && input.length > 1 ? input.slice(1).toLowerCase() : null);

export const matchQuickMessages = <T extends QuickMessageLike>(all: readonly T[], input: string): T[] => {
  const query = quickMessageQuery(input);
  if (query === null) return [];
  return all.filter((q) => q.shortcode.toLowerCase().includes(query) || q.message.toLowerCase().includes(query)).slice(0, 20);
};

/** Suggestion label "shortcode - message", cut at 35 characters. */
export const quickMessageLabel = (q: QuickMessageLike) => {
  const label = `${q.shortcode} - ${q.message}`;
  return label.length > QUICK_MESSAGE_LABEL_MAX ? `${label.slice(0, QUICK_MESSAGE_LABEL_MAX)}...` : label;
};

/** The message-signing toggle: default on, kept in localStorage. */
export const SIGN_MESSAGE: Preference<boolean> = {
  key: "signOption",
  fallback: () => true,
  parse: (raw) => (raw === "true" ? true : raw === "false" ? false : undefined),
};

/** The body as sent: signed messages start with the attendant's name in bold. */
export const signedBody = (text: string, userName: string, sign: boolean) => (sign ? `*${userName}:*\n${text.trim()}` : text.trim());

/** Recorded audio under 10000 bytes is discarded. */
export const isAudioKept = (blob: Blob) => blob.size >= AUDIO_MIN_BYTES;

/** Images are re-encoded as JPEG at quality 0.7 through a canvas before upload; other files go as they are. */
export const compressImage = async (file: File, quality = IMAGE_QUALITY): Promise<File> => {
  if (!file.type.startsWith("image/") || file.type === "image/gif") return file;
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = document.createElement("canvas");
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext("2d");
    if (!ctx) return file;
    ctx.drawImage(bitmap, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], file.name.replace(/\.\w+$/, "") + ".jpg", { type: "image/jpeg" });
  } catch {
    return file;
  }
};
