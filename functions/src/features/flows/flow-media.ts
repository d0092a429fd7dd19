import { randomUUID } from "node:crypto";
import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { FlowMediaFile } from "@atende/shared/domain/flows/flow";
import { AppError } from "../../platform/errors";
import { checkAttachment } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import { type MediaStore, mediaKeyFor } from "../../platform/storage/media-store.port";

/** Largest file a `media` node may send (the quick messages' cap: WhatsApp refuses bigger documents on most plans). */
export const MAX_FLOW_MEDIA_BYTES = 20 * 1024 * 1024;

/**
 * POST /flows/media: a file for a `media` node, stored under the company's media keys with the checks every
 * settings attachment gets (checkAttachment: sniffed type, no markup, nothing executable). The answer is the node's
 * `file`; the engine sends it only while its key is the company's own (flow.engine.ts).
 * Errors: ERR_PAYLOAD_TOO_LARGE over the cap, ERR_EMPTY_FILE / ERR_INVALID_MEDIA_TYPE from the check.
 */
export const createFlowMedia = (media: Pick<MediaStore, "put">, maxBytes = MAX_FLOW_MEDIA_BYTES) => ({
  async upload(auth: AuthContext, file: UploadedFile): Promise<FlowMediaFile> {
    if (file.bytes.length > maxBytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", { field: "file" });
    const checked = checkAttachment(file);
    const name = file.name.slice(0, 255);
    const key = mediaKeyFor(auth.companyId, `flow-${randomUUID()}`, name);
    await media.put(key, checked.bytes, checked.type);
    return { key, name, mimetype: checked.type };
  },
});
export type FlowMedia = ReturnType<typeof createFlowMedia>;
