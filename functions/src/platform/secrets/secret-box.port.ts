/**
 * Seals secrets a company gives us (model API keys, Cloud API tokens and app secrets, webhook signing secrets,
 * TOTP seeds) before they are stored, and opens them when the server needs them. Sealed values are opaque
 * strings with a scheme prefix ("v1:local:..." or "v1:kms:..."), so a stored value says how to open it.
 * Plain text is never stored and never returned by the API (answers carry a mask, shared `maskSecret`).
 */
export type SecretBox = {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
};

/** True when a stored value was sealed by a SecretBox (older rows may still hold plain text until rewritten). */
export const isSealed = (value: string) => /^v1:(local|kms):/.test(value);
