/** GET /settings entry and PUT /settings/{key} answer. */
export type SettingResponse = { key: string; value: string };

/** POST /settings/media-upload answer (the spec's success check). */
export type LogoUploadResponse = { mensagem: "Arquivo Anexado"; url: string };

/** GET /public/settings: what the login and sign-up pages need before anyone logs in. */
export type PublicSettingsResponse = { allowregister: string; viewregister: string; trial: string; logos: Record<string, string | null> };
