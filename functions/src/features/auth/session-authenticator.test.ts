import { describe, expect, it } from "vitest";
import type { UserRecord } from "../users/users.ports";
import { noteUserWrite } from "../users/user-writes";
import { createSessionAuthenticator } from "./session-authenticator";

/**
 * The request authenticator reuses a user item for at most one second on an instance (docs/adr/0040; issue 15: no
 * per-instance cache may show anything more than a second old): a logout, new login or deleted user made on another
 * instance takes effect within that second, one made on this instance at once.
 */
const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: 7,
  companyId: 3,
  name: "Ana",
  email: "ana@x.com",
  passwordHash: "h",
  profile: "user",
  super: false,
  whatsappId: null,
  allTicket: "desabled",
  queueIds: [1],
  online: false,
  lastSeenAt: null,
  tokenVersion: 1,
  refreshJti: null,
  prevRefreshJti: null,
  prevRefreshUntil: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

const setup = (reuseMs?: number) => {
  let clock = 0;
  let stored: UserRecord | null = user();
  let reads = 0;
  const authenticate = createSessionAuthenticator({
    // the token's claims are its text here: "<companyId>:<userId>:<tokenVersion>"
    tokens: {
      verifyAccess: async (token: string) => {
        const [companyId, userId, tokenVersion] = token.split(":").map(Number);
        return { ok: true as const, claims: { companyId: companyId!, userId: userId!, tokenVersion: tokenVersion!, profile: "user" as const, super: false } };
      },
    },
    users: {
      findById: async () => {
        reads++;
        return stored;
      },
    },
    reuseMs,
    now: () => clock,
  });
  return {
    authenticate,
    reads: () => reads,
    advance: (ms: number) => (clock += ms),
    store: (u: UserRecord | null) => (stored = u),
  };
};
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status ?? 500,
  );

describe("session authenticator: user item reuse", () => {
  it("reads the user once per second at most, and sees another instance's change after that second", async () => {
    const s = setup();
    expect((await s.authenticate("3:7:1")).auth.user.queueIds).toEqual([1]);
    s.advance(500);
    s.store(user({ tokenVersion: 2, queueIds: [2] })); // a new login elsewhere
    expect(await status(s.authenticate("3:7:1"))).toBe(200); // within the second
    expect(s.reads()).toBe(1);
    s.advance(500);
    expect(await status(s.authenticate("3:7:1"))).toBe(401); // the old session's token, one second on
    expect((await s.authenticate("3:7:2")).auth.user.queueIds).toEqual([2]);
    s.store(null); // deleted elsewhere
    s.advance(1000);
    expect(await status(s.authenticate("3:7:2"))).toBe(401);
  });

  it("a token of a newer version than the kept item reads again (a login made on another instance)", async () => {
    const s = setup();
    await s.authenticate("3:7:1");
    s.store(user({ tokenVersion: 2 }));
    expect(await status(s.authenticate("3:7:2"))).toBe(200);
    expect(s.reads()).toBe(2);
  });

  it("a write of the user on this instance drops the kept item at once", async () => {
    const s = setup();
    await s.authenticate("3:7:1");
    s.store(user({ tokenVersion: 2 }));
    noteUserWrite(3, 7); // e.g. the logout went through this instance's repository
    expect(await status(s.authenticate("3:7:1"))).toBe(401);
  });

  it("never keeps longer than a second, whatever it is given; 0 reads every time", async () => {
    const long = setup(60_000);
    await long.authenticate("3:7:1");
    long.advance(1000);
    await long.authenticate("3:7:1");
    expect(long.reads()).toBe(2);
    const none = setup(0);
    await none.authenticate("3:7:1");
    await none.authenticate("3:7:1");
    expect(none.reads()).toBe(2);
  });
});

describe("session authenticator: a read beside the caller's (docs/adr/0059)", () => {
  it("tells `beside` a verified token's company and user before the user item is read; a bad token tells nothing; a throwing `beside` does not decide", async () => {
    const order: string[] = [];
    const authenticate = createSessionAuthenticator({
      tokens: {
        verifyAccess: async (token: string) =>
          token === "bad"
            ? { ok: false as const, reason: "invalid" as const }
            : { ok: true as const, claims: { companyId: 3, userId: 7, tokenVersion: 1, profile: "user" as const, super: false } },
      },
      users: {
        findById: async () => {
          order.push("user read");
          return user();
        },
      },
      reuseMs: 0,
    });
    await authenticate("3:7:1", (caller) => order.push(`beside ${caller.companyId}:${caller.userId}`));
    expect(order).toEqual(["beside 3:7", "user read"]);
    order.length = 0;
    expect(await status(authenticate("bad", (caller) => order.push(`beside ${caller.companyId}`)))).toBe(401);
    expect(await status(authenticate(undefined, (caller) => order.push(`beside ${caller.companyId}`)))).toBe(401);
    expect(order).toEqual([]);
    expect(
      await status(
        authenticate("3:7:1", () => {
          throw new Error("beside failed");
        }),
      ),
    ).toBe(200);
  });
});
