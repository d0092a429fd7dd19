import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from "node:crypto";

/** A subscription the test made itself (as a browser would): it keeps the private key, so it can read what arrives. */
export type TestPushSubscription = { endpoint: string; keys: { p256dh: string; auth: string }; ecdh: ECDH; authSecret: Buffer };

export const createTestSubscription = (endpoint: string): TestPushSubscription => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: authSecret.toString("base64url") }, ecdh, authSecret };
};

/**
 * Decrypts a Web Push body (RFC 8291, aes128gcm of RFC 8188, one record) with the subscription's private key, as the
 * browser does: written here independently of the `web-push` package the server uses, so a test checks it for real.
 */
export const decryptPushBody = (body: Buffer, sub: Pick<TestPushSubscription, "ecdh" | "authSecret">): string => {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const payload = body.subarray(21 + idLength);
  const shared = sub.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), sub.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, sub.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(payload.subarray(payload.length - 16));
  const plain = Buffer.concat([decipher.update(payload.subarray(0, payload.length - 16)), decipher.final()]);
  // the last record ends with the 0x02 delimiter, then zero padding
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  return plain.subarray(0, end).toString("utf8");
};
