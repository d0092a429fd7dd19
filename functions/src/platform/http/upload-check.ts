import { sniffMedia, type Sniffed, type UploadDestination, uploadRefusal, withDeclaredAv } from "@atende/shared/domain/media/media-sniff";
import { AppError } from "../errors";
import type { UploadedFile } from "./uploaded-file";

/**
 * An upload checked by its content against the destination's allow-list (shared/domain/media/media-sniff):
 * ERR_EMPTY_FILE / ERR_INVALID_MEDIA_TYPE before anything is stored. The answer carries the sniffed type, which
 * is what gets stored, never the type the sender declared.
 */
export const checkUpload = <F extends UploadedFile>(file: F, destination: UploadDestination, field = "file"): F & { sniffed: Sniffed } => {
  const sniffed = withDeclaredAv(sniffMedia(file.bytes, file.name), file.type);
  const refusal = uploadRefusal(sniffed, destination);
  if (refusal) throw new AppError(refusal, { field });
  return { ...file, type: sniffed.mime, sniffed };
};

/** For attachments a company sends to customers from settings (queue and option media, quick messages, campaigns, file lists): no markup. */
export const checkAttachment = <F extends UploadedFile>(file: F, field = "file"): F & { sniffed: Sniffed } => {
  const checked = checkUpload(file, "message", field);
  if (checked.sniffed.kind === "active") throw new AppError("ERR_INVALID_MEDIA_TYPE", { field });
  return checked;
};
