import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config";
import { createKmsSecretBox } from "./kms-secret-box.adapter";
import { createLocalSecretBox } from "./local-secret-box.adapter";
import type { SecretBox } from "./secret-box.port";

/**
 * The secret box the configuration asks for: KMS in AWS (SECRETS_KMS_KEY_ID), a local key file on one machine
 * (SECRETS_KEY_FILE). Neither (tests, throwaway runs): a key file of this process only under the temp folder, so
 * what it sealed cannot be opened after a restart.
 */
export const createSecretBoxFromConfig = (config: Pick<Config, "SECRETS_KMS_KEY_ID" | "SECRETS_KEY_FILE" | "AWS_REGION">): SecretBox => {
  if (config.SECRETS_KMS_KEY_ID) return createKmsSecretBox({ keyId: config.SECRETS_KMS_KEY_ID, region: config.AWS_REGION });
  if (config.SECRETS_KEY_FILE) return createLocalSecretBox(config.SECRETS_KEY_FILE);
  return createLocalSecretBox(join(tmpdir(), `atende-secrets-${randomBytes(6).toString("hex")}`, "secret.key"));
};
