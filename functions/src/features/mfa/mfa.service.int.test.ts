import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import "../../testing/provided-context";
import { createTableInput } from "@atende/shared/table/table-definition";
import { createDb, type Db } from "../../platform/db/client";
import { createLogger } from "../../platform/logger";
import { AppError } from "../../platform/errors";
import { createLocalSecretBox } from "../../platform/secrets/local-secret-box.adapter";
import type { AuditEntryInput } from "../audit/audit.port";
import { createMfaRepository } from "./mfa.repository";
import { createMfaService, type MfaService, type MfaSubject } from "./mfa.service";
import { base32Decode, totp } from "./totp";

let db: Db;
let now = new Date("2026-05-01T12:00:00Z");
let required = new Set<number>();
let failures: string[] = [];
let entries: AuditEntryInput[] = [];
let svc: MfaService;
let nextUser = 1;

const subject = (userId: number, companyId = 1): MfaSubject => ({
  companyId,
  userId,
  email: `u${userId}@c${companyId}.com`,
  name: `U${userId}`,
  actor: { kind: "user", userId, name: `U${userId}`, profile: "user", super: false },
});

beforeAll(async () => {
  const endpoint = inject("dynamoEndpoint");
  const tableName = `t_${randomBytes(6).toString("hex")}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  client.destroy();
  db = createDb({ tableName, endpoint, region: "us-east-1" });
  const counts = new Map<string, number>();
  svc = createMfaService({
    mfa: createMfaRepository(db),
    secrets: createLocalSecretBox(join(mkdtempSync(join(tmpdir(), "mfa-")), "secret.key")),
    // the sign-in limits as a fake: `failures` holds the slots taken and not given back
    limits: {
      take: async (email, ip) => {
        const keys = [`ip#${ip}`, `email#${email.toLowerCase()}`];
        if (keys.some((k) => (counts.get(k) ?? 0) >= 5)) throw new AppError("ERR_TOO_MANY_ATTEMPTS");
        for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
        failures.push(...keys);
        return {
          release: async () => {
            for (const k of keys) {
              counts.set(k, counts.get(k)! - 1);
              failures.splice(failures.indexOf(k), 1);
            }
          },
        };
      },
    },
    audit: { record: async (e) => void entries.push(e) },
    logger: createLogger("silent"),
    clock: () => now,
    isRequired: async (companyId) => required.has(companyId),
    issuer: "Atende",
  });
});

beforeEach(() => {
  failures = [];
  entries = [];
  required = new Set();
  now = new Date(now.getTime() + 3600_000);
});

const code = (secret: string, at = now) => totp(base32Decode(secret), at);

/** Sets up and enables for a fresh user: the secret and the recovery codes. */
const enrolled = async () => {
  const s = subject(nextUser++);
  const { secret } = await svc.setup(s);
  const recovery = await svc.enable(s, code(secret), "10.0.0.1");
  now = new Date(now.getTime() + 30_000); // the enabling code's step is spent
  return { s, secret, recovery };
};

describe("two-factor setup and enable", () => {
  it("answers a secret and its otpauth URI, and stores the secret sealed, never in clear", async () => {
    const s = subject(nextUser++);
    const setup = await svc.setup(s);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
    const all = JSON.stringify((await db.doc.send(new ScanCommand({ TableName: db.tableName }))).Items);
    expect(all).not.toContain(setup.secret);
    expect(all).toMatch(/v1:local:/);
    expect(await svc.status(1, s.userId)).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
  });

  it("enables with a right code and answers ten recovery codes; a wrong code enables nothing and counts as a failed sign-in", async () => {
    const s = subject(nextUser++);
    const { secret } = await svc.setup(s);
    await expect(svc.enable(s, "000000" === code(secret) ? "111111" : "000000", "10.0.0.9")).rejects.toMatchObject({ code: "ERR_MFA_INVALID_CODE" });
    expect(failures).toEqual(["ip#10.0.0.9", `email#${s.email}`]);
    expect(entries.map((e) => e.action)).toEqual(["mfa_failed"]);
    const codes = await svc.enable(s, code(secret), "10.0.0.9");
    expect(codes).toHaveLength(10);
    expect(await svc.status(1, s.userId)).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect(entries.map((e) => e.action)).toEqual(["mfa_failed", "mfa_enabled"]);
    await expect(svc.setup(s)).rejects.toMatchObject({ code: "ERR_MFA_ALREADY_ENABLED" });
  });

  it("refuses enable before setup", async () => {
    await expect(svc.enable(subject(nextUser++), "123456", "10.0.0.1")).rejects.toMatchObject({ code: "ERR_MFA_NOT_SET_UP" });
  });
});

describe("sign-in second step", () => {
  it("no second step without two-factor; a verify challenge with it; a setup challenge when required and not set up", async () => {
    const plain = subject(nextUser++, 2);
    expect(await svc.challengeAfterPassword(plain)).toBeNull();
    required.add(2);
    const setup = await svc.challengeAfterPassword(plain);
    expect(setup).toMatchObject({ setupRequired: true });
    const { s } = await enrolled();
    expect(await svc.challengeAfterPassword(s)).toMatchObject({ setupRequired: false });
  });

  it("verifies a current code once: the token and the code's step are spent", async () => {
    const { s, secret } = await enrolled();
    const first = (await svc.challengeAfterPassword(s))!;
    expect(await svc.verify(first.mfaToken, code(secret), "10.0.0.2", async () => s)).toEqual({ companyId: 1, userId: s.userId });
    expect(entries.at(-1)).toMatchObject({ action: "mfa_verified", ip: "10.0.0.2", record: { kind: "user", id: s.userId } });
    await expect(svc.verify(first.mfaToken, code(secret), "10.0.0.2", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_TOKEN_INVALID" });
    const second = (await svc.challengeAfterPassword(s))!;
    await expect(svc.verify(second.mfaToken, code(secret), "10.0.0.2", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_INVALID_CODE" });
  });

  it("a recovery code works once", async () => {
    const { s, recovery } = await enrolled();
    const one = (await svc.challengeAfterPassword(s))!;
    await svc.verify(one.mfaToken, recovery[3]!.toLowerCase(), "10.0.0.3", async () => s);
    expect(entries.at(-1)!.action).toBe("mfa_recovery_used");
    expect((await svc.status(1, s.userId)).recoveryCodesLeft).toBe(9);
    const two = (await svc.challengeAfterPassword(s))!;
    await expect(svc.verify(two.mfaToken, recovery[3]!, "10.0.0.3", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_INVALID_CODE" });
    await svc.verify(two.mfaToken, recovery[4]!, "10.0.0.3", async () => s);
  });

  it("a wrong code counts toward the login throttle; at the limit even a right code is refused", async () => {
    const { s, secret } = await enrolled();
    const c = (await svc.challengeAfterPassword(s))!;
    const right = code(secret);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await expect(svc.verify(c.mfaToken, wrong, "10.9.9.9", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_INVALID_CODE" });
    expect(failures.filter((f) => f === `email#${s.email}`)).toHaveLength(5);
    await expect(svc.verify(c.mfaToken, right, "10.9.9.9", async () => s)).rejects.toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS" });
  });

  it("a token expires after five minutes and a setup token is no verify token", async () => {
    const { s, secret } = await enrolled();
    const c = (await svc.challengeAfterPassword(s))!;
    now = new Date(now.getTime() + 5 * 60_000 + 1000);
    await expect(svc.verify(c.mfaToken, code(secret), "10.0.0.4", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_TOKEN_INVALID" });
    required.add(3);
    const setup = (await svc.challengeAfterPassword(subject(nextUser++, 3)))!;
    await expect(svc.verify(setup.mfaToken, "123456", "10.0.0.4", async () => s)).rejects.toMatchObject({ code: "ERR_MFA_TOKEN_INVALID" });
    await expect(svc.setupChallenge(c.mfaToken)).rejects.toMatchObject({ code: "ERR_MFA_TOKEN_INVALID" });
  });
});

describe("turning it off", () => {
  it("needs a current code; a wrong one is refused and counted", async () => {
    const { s, secret } = await enrolled();
    const right = code(secret);
    await expect(svc.disable(s, right === "000000" ? "111111" : "000000", "10.0.0.5")).rejects.toMatchObject({ code: "ERR_MFA_INVALID_CODE" });
    expect((await svc.status(1, s.userId)).enabled).toBe(true);
    await svc.disable(s, right, "10.0.0.5");
    expect((await svc.status(1, s.userId)).enabled).toBe(false);
    expect(entries.at(-1)!.action).toBe("mfa_disabled");
    await expect(svc.disable(s, right, "10.0.0.5")).rejects.toMatchObject({ code: "ERR_MFA_NOT_ENABLED" });
  });

  it("is refused while the company requires it", async () => {
    const { s, secret } = await enrolled();
    required.add(1);
    await expect(svc.disable(s, code(secret), "10.0.0.6")).rejects.toMatchObject({ code: "ERR_MFA_REQUIRED" });
  });
});
