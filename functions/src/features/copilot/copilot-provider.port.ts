/**
 * The copilot's provider (issue 33): any OpenAI-compatible endpoint of the company's. The adapter
 * (copilot-provider.openai.ts, the `openai` package) is a heavy port (app/lambda-roles.ts): only the Lambdas that
 * run the copilot (api, jobs) get it; elsewhere a stand-in refuses.
 */
export type ProviderTarget = { baseUrl: string; apiKey: string; model: string };
export type CopilotChatMessage = { role: "system" | "user" | "assistant"; content: string };
export type ProviderUsage = { promptTokens: number; completionTokens: number };

export type CopilotProvider = {
  chat(target: ProviderTarget, messages: CopilotChatMessage[], opts: { maxTokens: number; temperature?: number; signal: AbortSignal }): Promise<{ text: string; usage: ProviderUsage }>;
  transcribe(target: ProviderTarget, audio: { bytes: Uint8Array; filename: string; mimetype: string }, opts: { signal: AbortSignal }): Promise<{ text: string }>;
};

/** The provider failed: `status` is its HTTP status, 0 when it could not be reached or did not answer in time. */
export class CopilotProviderError extends Error {
  constructor(
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(`copilot provider failed (${status})`, options);
    this.name = "CopilotProviderError";
  }
}
/** The outbound guard refused the provider's address (docs/adr/0062). */
export class CopilotUrlRefusedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("copilot provider address refused by the outbound guard", options);
    this.name = "CopilotUrlRefusedError";
  }
}

export type CopilotProviderFactory = (deps: { fetch?: typeof fetch }) => CopilotProvider;

/** Where the `openai` package is not bundled (ws, tick, inbound): never called there, refuses loudly if it is. */
export const copilotProviderElsewhere: CopilotProvider = {
  chat: async () => {
    throw new Error("the copilot provider runs in the api and jobs Lambdas only (app/lambda-roles.ts)");
  },
  transcribe: async () => {
    throw new Error("the copilot provider runs in the api and jobs Lambdas only (app/lambda-roles.ts)");
  },
};
