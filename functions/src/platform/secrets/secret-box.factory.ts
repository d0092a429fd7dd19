import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Config } from "../config";
import { createKmsSecretBox } from "./kms-secret-box.adapter";
import { createLocalSecretBox } from "./local-secret-box.adapter";
import type { SecretBox } from "./secret-box.port";

/** The SecretBox of this deployment: KMS in AWS (SECRETS_KMS_KEY_ID), else a local key file (SECRETS_KEY_FILE). */
export const secretBoxFromConfig = (config: Pick<Config, "SECRETS_KMS_KEY_ID" | "SECRETS_KEY_FILE" | "AWS_REGION" | "MEDIA_DIR">): SecretBox =>
  config.SECRETS_KMS_KEY_ID
    ? createKmsSecretBox({ keyId: config.SECRETS_KMS_KEY_ID, region: config.AWS_REGION })
    : createLocalSecretBox(config.SECRETS_KEY_FILE ?? (config.MEDIA_DIR ? join(config.MEDIA_DIR, "..", "secret-box.key") : join(tmpdir(), "atende-secret-box.key")));
