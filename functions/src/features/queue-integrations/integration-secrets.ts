import type { IntegrationType } from "@atende/shared/domain/queue-integrations/queue-integration";
import { AppError } from "../../platform/errors";
import { isSealed, type SecretBox } from "../../platform/secrets/secret-box.port";
import { generateWebhookSecret } from "../bots/engines/webhook-signature";

/** The integration types whose calls are signed with a per-integration secret (docs/integrations.md). */
export const isSignedType = (type: IntegrationType) => type === "n8n" || type === "webhook";

/**
 * The secrets a queue integration holds (ADR 0027), sealed with the SecretBox before storage:
 * - n8n/webhook: the signing secret, made when the integration becomes such a type, shown once (the answer of that
 *   save or of a rotation), dropped when it changes to another type;
 * - DialogFlow: the service account's `private_key` inside `jsonContent` (the rest of the JSON stays readable).
 */
export const createIntegrationSecrets = (box: SecretBox) => {
  const seal = (plain: string) => box.seal(plain);
  const open = async (stored: string) => (stored && isSealed(stored) ? box.open(stored) : stored);

  return {
    open,
    /** The stored secret after a save of `type`, and the plain one to show when this save made it. */
    async forSave(type: IntegrationType, stored: string | null | undefined): Promise<{ stored: string | null; shown?: string }> {
      if (!isSignedType(type)) return { stored: null };
      if (stored) return { stored };
      const shown = generateWebhookSecret();
      return { stored: await seal(shown), shown };
    },
    /** A new secret for an n8n/webhook integration (ERR_INTEGRATION_NO_SECRET for the other types). */
    async rotate(type: IntegrationType): Promise<{ stored: string; shown: string }> {
      if (!isSignedType(type)) throw new AppError("ERR_INTEGRATION_NO_SECRET");
      const shown = generateWebhookSecret();
      return { stored: await seal(shown), shown };
    },
    /** `jsonContent` with its private key sealed (already sealed, absent or not JSON: unchanged). */
    async sealServiceAccountKey(jsonContent: string): Promise<string> {
      const c = parseObject(jsonContent);
      if (!c || typeof c.private_key !== "string" || !c.private_key || isSealed(c.private_key)) return jsonContent;
      return JSON.stringify({ ...c, private_key: await seal(c.private_key) }, null, 2);
    },
    /** `jsonContent` with its private key opened, for a call to DialogFlow. */
    async openServiceAccountKey(jsonContent: string): Promise<string> {
      const c = parseObject(jsonContent);
      if (!c || typeof c.private_key !== "string" || !isSealed(c.private_key)) return jsonContent;
      return JSON.stringify({ ...c, private_key: await box.open(c.private_key) }, null, 2);
    },
  };
};
export type IntegrationSecrets = ReturnType<typeof createIntegrationSecrets>;

const parseObject = (json: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};
