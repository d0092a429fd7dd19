import { BotTransientError } from "./bot-engine.port";

/** Azure Speech's public endpoint; `{region}` is the prompt's voiceRegion. The local runner points it at /simulator/ai. */
export const AZURE_SPEECH_BASE_URL = "https://{region}.tts.speech.microsoft.com";
/** Opus in Ogg: what WhatsApp plays as a voice note, with no transcoding (ADR 0015). */
export const SPEECH_FORMAT = { header: "ogg-24khz-16bit-mono-opus", mimetype: "audio/ogg; codecs=opus" } as const;

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** The SSML Azure's text-to-speech REST API takes: one voice, Brazilian Portuguese. */
export const speechSsml = (text: string, voice: string) =>
  `<speak version='1.0' xml:lang='pt-BR'><voice xml:lang='pt-BR' name='${escapeXml(voice)}'>${escapeXml(text)}</voice></speak>`;

/**
 * Text to a voice note through Azure Speech's REST API (POST {base}/cognitiveservices/v1 with the subscription key).
 * 429 and 5xx are transient (the runner retries once); anything else is final.
 */
export const createAzureSpeech = (opts: { baseUrl?: string; fetch?: typeof fetch } = {}) => {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl || AZURE_SPEECH_BASE_URL;
  return {
    async synthesize(args: { text: string; voice: string; key: string; region: string; signal?: AbortSignal }): Promise<{ audio: Uint8Array; mimetype: string }> {
      const url = `${base.replace("{region}", encodeURIComponent(args.region)).replace(/\/$/, "")}/cognitiveservices/v1`;
      let res: Response;
      try {
        res = await doFetch(url, {
          method: "POST",
          headers: {
            "Ocp-Apim-Subscription-Key": args.key,
            "Content-Type": "application/ssml+xml",
            "X-Microsoft-OutputFormat": SPEECH_FORMAT.header,
            "User-Agent": "atende",
          },
          body: speechSsml(args.text, args.voice),
          signal: args.signal,
        });
      } catch (err) {
        if ((err as Error).name === "AbortError") throw err;
        throw new BotTransientError(`speech: ${String((err as Error).message ?? err)}`, { cause: err });
      }
      if (res.status === 429 || res.status >= 500) throw new BotTransientError(`speech answered ${res.status}`);
      if (!res.ok) throw new Error(`speech answered ${res.status}`);
      return { audio: new Uint8Array(await res.arrayBuffer()), mimetype: SPEECH_FORMAT.mimetype };
    },
  };
};
export type AzureSpeech = ReturnType<typeof createAzureSpeech>;
