import { randomUUID } from "node:crypto";
import type { LogoUploadResponse, PublicSettingsResponse } from "@atende/shared/contracts/http/settings";
import { LOGO_CONTENT_TYPES, LOGO_DESTINATIONS, type LogoDestination } from "@atende/shared/domain/settings/settings";
import { AppError } from "../../platform/errors";
import { checkUpload } from "../../platform/http/upload-check";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import type { MediaObject, MediaStore } from "../../platform/storage/media-store.port";
import type { SettingsStore } from "../settings/settings.ports";
import type { SettingsService } from "../settings/settings.service";
import { DEFAULT_LOGOS } from "./default-logos";
import { appManifest, ICON_LOGOS, logoIcons, type ManifestIcon, type ManifestLanguage } from "./app-manifest";

const MAX_LOGO_BYTES = 2 * 1024 * 1024;
const isDestination = (v: string): v is LogoDestination => (LOGO_DESTINATIONS as readonly string[]).includes(v);

/**
 * The file's real type from its content (PNG, ICO or SVG only, spec 2), whatever its name or declared type says:
 * the one upload check (platform/http/upload-check.ts, destination "logo") refuses an empty file or another type.
 */
const logoType = (file: UploadedFile): keyof typeof LOGO_CONTENT_TYPES => {
  const { ext } = checkUpload(file, "logo").sniffed;
  if (ext === "png" || ext === "ico" || ext === "svg") return ext;
  throw new AppError("ERR_INVALID_MEDIA_TYPE", { field: "file" });
};

/** Logos per destination (login, signup, inner layout, favicons): platform-wide, the operator's. */
export const createLogosService = (deps: { media: MediaStore; settings: SettingsStore; settingsService: SettingsService; clock: () => Date }) => {
  const { media, settings, clock } = deps;
  const settingKey = (ref: LogoDestination) => `logo:${ref}`;
  const urlOf = (ref: LogoDestination, key: string) => `/api/public/logos/${ref}?v=${encodeURIComponent(key.split("/").pop() ?? "")}`;
  // an uploaded logo's key names that one upload (a new upload, a new key): what it gives as an app icon never changes
  const iconsByKey = new Map<string, ManifestIcon[] | null>();
  const iconsOf = async (ref: LogoDestination, key: string) => {
    if (!iconsByKey.has(key)) {
      const logo = await media.get(key);
      if (!logo) return null;
      if (iconsByKey.size >= 20) iconsByKey.clear();
      iconsByKey.set(key, logoIcons(urlOf(ref, key), logo));
    }
    return iconsByKey.get(key)!;
  };

  return {
    /** POST /settings/media-upload?ref= (operator). */
    async upload(ref: string, file: UploadedFile): Promise<LogoUploadResponse> {
      if (!isDestination(ref)) throw new AppError("ERR_VALIDATION", { field: "ref" });
      if (file.bytes.length > MAX_LOGO_BYTES) throw new AppError("ERR_VALIDATION", { field: "file" });
      const type = logoType(file);
      const key = `platform/logos/${ref}/${randomUUID()}.${type}`;
      await media.put(key, file.bytes, LOGO_CONTENT_TYPES[type]);
      await settings.put(null, settingKey(ref), key, clock());
      return { mensagem: "Arquivo Anexado", url: urlOf(ref, key) };
    },
    /**
     * GET /public/logos/{ref}: the uploaded logo, else the built-in default (`uploaded` false); null only for an
     * unknown destination.
     */
    async current(ref: string): Promise<(Pick<MediaObject, "body" | "mimetype"> & { uploaded: boolean }) | null> {
      if (!isDestination(ref)) return null;
      const key = (await settings.get(null, settingKey(ref)))?.value;
      const stored = key ? await media.get(key) : null;
      return stored ? { body: stored.body, mimetype: stored.mimetype, uploaded: true } : { ...DEFAULT_LOGOS[ref], uploaded: false };
    },
    /**
     * GET /public/manifest.webmanifest (every app start asks): the app's manifest in the browser's language, its icons
     * the operator's square logo when one fits. One settings read; each logo's bytes only once per instance.
     */
    async manifest(language: ManifestLanguage) {
      const stored = new Map((await settings.list(null)).map((s) => [s.key, s.value]));
      for (const ref of ICON_LOGOS) {
        const key = stored.get(settingKey(ref));
        const icons = key ? await iconsOf(ref, key) : null;
        if (icons) return appManifest(icons, language);
      }
      return appManifest(null, language);
    },
    /** GET /public/settings: what the public pages need before login. */
    async publicSettings(): Promise<PublicSettingsResponse> {
      const stored = new Map((await settings.list(null)).map((s) => [s.key, s.value]));
      const logos = Object.fromEntries(LOGO_DESTINATIONS.map((ref) => [ref, stored.get(settingKey(ref)) ? urlOf(ref, stored.get(settingKey(ref))!) : null]));
      return {
        allowregister: await deps.settingsService.globalValue("allowregister"),
        viewregister: await deps.settingsService.globalValue("viewregister"),
        trial: await deps.settingsService.globalValue("trial"),
        logos,
      };
    },
  };
};
export type LogosService = ReturnType<typeof createLogosService>;
