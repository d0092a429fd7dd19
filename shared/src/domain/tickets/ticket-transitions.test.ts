import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../errors/error-codes";
import type { Profile } from "../permissions/permissions";
import type { TicketStatus } from "./ticket";
import {
  actionOf,
  actionsFor,
  canDo,
  customerNotices,
  effectsOf,
  isTicketUpdateAction,
  mayDo,
  planTicketChange,
  TICKET_ACTIONS,
  TICKET_TRANSITIONS,
  type TicketChangeRequest,
  type TicketPlace,
} from "./ticket-transitions";

const ME = 7;
const OTHER = 9;
const ticket = (over: Partial<TicketPlace> = {}): TicketPlace => ({ status: "pending", userId: null, queueId: 1, whatsappId: 1, ...over });
const STATUSES: TicketStatus[] = ["pending", "open", "closed"];
const PROFILES: Profile[] = ["user", "supervisor", "admin"];

describe("spec 1 section 4: the transitions table", () => {
  it("Accept: pending → open, owner = the current user; greeting when sendGreetingAccepted (server-side)", () => {
    const plan = planTicketChange(ticket({ status: "pending" }), { status: "open" }, ME);
    expect(plan).toMatchObject({ action: "accept", next: { status: "open", userId: ME, queueId: 1, whatsappId: 1 } });
    expect(plan!.effects).toContain("endBot");
    expect(TICKET_TRANSITIONS.accept.effects).toContain("greeting");
    expect(customerNotices("accept", { isGroup: false, hasOwner: true, setting: () => "enabled" })).toEqual(["greeting"]);
    expect(customerNotices("accept", { isGroup: false, hasOwner: true, setting: () => "disabled" })).toEqual([]);
    expect(customerNotices("accept", { isGroup: true, hasOwner: true, setting: () => "enabled" })).toEqual([]);
  });

  it("Resolve / close: open → closed, owner kept, unread cleared, the contact+connection lock released", () => {
    const plan = planTicketChange(ticket({ status: "open", userId: ME }), { status: "closed" }, ME);
    expect(plan).toMatchObject({ action: "resolve", next: { status: "closed", userId: ME, queueId: 1 } });
    expect(plan!.effects).toEqual(expect.arrayContaining(["clearUnread", "releaseLock", "endBot"]));
    // SERVER-RULES: "resolve (→ closed)": a pending ticket can be closed too (the card's Finalizar); the owner is kept
    expect(planTicketChange(ticket({ status: "pending", userId: null }), { status: "closed", userId: ME }, ME)).toMatchObject({
      action: "resolve",
      next: { status: "closed", userId: null },
    });
  });

  it("Return: open → pending, owner cleared, the bot is not ended", () => {
    const plan = planTicketChange(ticket({ status: "open", userId: ME }), { status: "pending" }, ME);
    expect(plan).toMatchObject({ action: "return", next: { status: "pending", userId: null, queueId: 1 } });
    expect(plan!.effects).not.toContain("endBot");
    // kept as it was: a body that also names "no user" while the ticket has an owner is a transfer to no one
    // (same place: pending, no owner), so it is recorded as a transfer and may send the transfer notice
    expect(planTicketChange(ticket({ status: "open", userId: ME }), { status: "pending", userId: null }, ME)).toMatchObject({
      action: "transfer",
      next: { status: "pending", userId: null, queueId: 1 },
    });
  });

  it("Reopen: closed → open, owner = the current user, queue kept, a new cycle (rating cleared), the lock taken again", () => {
    const plan = planTicketChange(ticket({ status: "closed", userId: OTHER, queueId: 4 }), { status: "open", userId: ME, queueId: 4 }, ME);
    expect(plan).toMatchObject({ action: "reopen", next: { status: "open", userId: ME, queueId: 4, whatsappId: 1 } });
    expect(plan!.effects).toEqual(expect.arrayContaining(["clearRating", "takeLock", "endBot"]));
    expect(TICKET_TRANSITIONS.reopen.errors).toContain("ERR_OTHER_OPEN_TICKET");
  });

  it("Transfer: any status; changes owner, queue and connection; no user chosen → pending with no owner", () => {
    for (const status of STATUSES) {
      const noUser = planTicketChange(ticket({ status, userId: ME }), { queueId: 2, userId: null }, ME);
      expect(noUser, status).toMatchObject({ action: "transfer", next: { status: "pending", userId: null, queueId: 2, whatsappId: 1 } });
      const toUser = planTicketChange(ticket({ status, userId: ME }), { queueId: 2, userId: OTHER, whatsappId: 3 }, ME);
      expect(toUser, status).toMatchObject({ action: "transfer", next: { status: status === "closed" ? "open" : status, userId: OTHER, queueId: 2, whatsappId: 3 } });
    }
    // the asked status wins when a user is chosen
    expect(planTicketChange(ticket({ status: "pending" }), { queueId: 2, userId: OTHER, status: "open" }, ME)).toMatchObject({ next: { status: "open" } });
    // only another connection: the owner is not named, so none
    expect(planTicketChange(ticket({ status: "open", userId: ME }), { whatsappId: 2 }, ME)).toMatchObject({ action: "transfer", next: { status: "pending", userId: null, whatsappId: 2 } });
    // another user, same queue
    expect(planTicketChange(ticket({ status: "open", userId: ME }), { userId: OTHER }, ME)).toMatchObject({ action: "transfer", next: { status: "open", userId: OTHER } });
    expect(TICKET_TRANSITIONS.transfer.effects).toContain("transferNotice");
    expect(customerNotices("transfer", { isGroup: false, hasOwner: false, setting: (k) => (k === "sendMsgTransfTicket" ? "enabled" : "disabled") })).toEqual(["transferNotice"]);
    expect(TICKET_TRANSITIONS.transfer.errors).toEqual(expect.arrayContaining(["ERR_NOT_FOUND", "ERR_NO_USER_FOUND", "ERR_NO_WAPP_FOUND", "ERR_OTHER_OPEN_TICKET"]));
  });

  it("Delete: any status, admin only; not a PUT", () => {
    for (const status of STATUSES) {
      expect(canDo("delete", status, "admin")).toBe(true);
      expect(canDo("delete", status, "user")).toBe(false);
      expect(canDo("delete", status, "supervisor")).toBe(false);
    }
    expect(mayDo("delete", "admin")).toBe(true);
    expect(mayDo("delete", "user")).toBe(false);
    expect(mayDo("delete", null)).toBe(false);
    expect(isTicketUpdateAction("delete")).toBe(false);
    expect(isTicketUpdateAction("rate")).toBe(false);
    expect(isTicketUpdateAction("toString")).toBe(false);
    expect(isTicketUpdateAction("resolve")).toBe(true);
    expect(TICKET_TRANSITIONS.delete.to).toBe("removed");
    expect(TICKET_ACTIONS).toContain("delete");
  });
});

describe('SERVER-RULES "Ticket changes"', () => {
  it("closing sends the completion message; with userRating and an owner the rating request instead; never to groups", () => {
    const on = (k: string) => (k === "userRating" ? "enabled" : "disabled");
    expect(customerNotices("resolve", { isGroup: false, hasOwner: true, setting: on })).toEqual(["ratingRequest"]);
    expect(customerNotices("resolve", { isGroup: false, hasOwner: false, setting: on })).toEqual(["completionMessage"]);
    expect(customerNotices("resolve", { isGroup: false, hasOwner: true, setting: () => "disabled" })).toEqual(["completionMessage"]);
    expect(customerNotices("resolve", { isGroup: true, hasOwner: true, setting: on })).toEqual([]);
    expect(customerNotices("return", { isGroup: false, hasOwner: false, setting: () => "enabled" })).toEqual([]);
    expect(customerNotices("reopen", { isGroup: false, hasOwner: true, setting: () => "enabled" })).toEqual([]);
  });

  it("reopening or transferring onto a connection where the contact has a pending/open ticket is refused with ERR_OTHER_OPEN_TICKET", () => {
    expect(effectsOf("reopen", ticket({ status: "closed" }), ticket({ status: "open" }))).toContain("takeLock");
    expect(effectsOf("transfer", ticket({ status: "closed" }), ticket({ status: "open", whatsappId: 2 }))).toContain("takeLock");
    expect(effectsOf("transfer", ticket({ status: "open" }), ticket({ status: "open", whatsappId: 2 }))).not.toContain("takeLock");
    for (const a of ["reopen", "transfer", "update"] as const) expect(TICKET_TRANSITIONS[a].errors).toContain("ERR_OTHER_OPEN_TICKET");
    expect(ERROR_STATUS.ERR_OTHER_OPEN_TICKET).toBe(409);
  });

  it("a closed ticket sent back to pending keeps its owner and starts a new cycle (recorded as update)", () => {
    const plan = planTicketChange(ticket({ status: "closed", userId: OTHER }), { status: "pending" }, ME);
    expect(plan).toMatchObject({ action: "update", next: { status: "pending", userId: OTHER } });
    expect(plan!.effects).toEqual(expect.arrayContaining(["clearRating", "takeLock"]));
    expect(plan!.effects).not.toContain("endBot");
    // a transfer that leaves a closed ticket pending starts a new cycle too
    expect(planTicketChange(ticket({ status: "closed", userId: ME }), { queueId: 2, userId: null }, ME)!.effects).toContain("clearRating");
    expect(planTicketChange(ticket({ status: "closed", userId: ME }), { queueId: 2, userId: OTHER }, ME)!.effects).not.toContain("clearRating");
  });

  it("refuses nothing it does not change: same status, or naming only the owner or the caller, is no transition", () => {
    for (const status of STATUSES) expect(planTicketChange(ticket({ status, userId: OTHER }), { status }, ME), status).toBeNull();
    expect(planTicketChange(ticket({ status: "open", userId: OTHER }), { userId: OTHER }, ME)).toBeNull();
    // taking over someone's open ticket by naming yourself is not a transfer (and not a status change)
    expect(planTicketChange(ticket({ status: "open", userId: OTHER }), { userId: ME, status: "open" }, ME)).toBeNull();
    expect(planTicketChange(ticket({ status: "open" }), {}, ME)).toBeNull();
    // return only from open; accept only from pending; reopen only from closed
    expect(actionOf(ticket({ status: "pending" }), { status: "pending", userId: null }, ME)).toBeNull();
    expect(actionOf(ticket({ status: "closed" }), { status: "closed" }, ME)).toBeNull();
  });

  it("every action's refusals are catalogue codes; each status has a row for every other status it can reach", () => {
    for (const row of Object.values(TICKET_TRANSITIONS)) for (const code of row.errors) expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    const pairs = Object.entries(TICKET_TRANSITIONS)
      .filter(([a]) => a !== "transfer" && a !== "delete")
      .flatMap(([a, r]) => r.from.map((f) => `${f}>${String(r.to)}:${a}`));
    expect(pairs.sort()).toEqual(["closed>open:reopen", "closed>pending:update", "open>closed:resolve", "open>pending:return", "pending>closed:resolve", "pending>open:accept"]);
  });
});

describe("who may do what (the buttons)", () => {
  it("offers per status: pending accept/resolve/transfer, open return/resolve/transfer, closed reopen/transfer; delete for admins", () => {
    const expected: Record<TicketStatus, string[]> = {
      pending: ["accept", "resolve", "transfer"],
      open: ["return", "resolve", "transfer"],
      closed: ["reopen", "transfer"],
    };
    for (const status of STATUSES)
      for (const profile of PROFILES) {
        const want = profile === "admin" ? [...expected[status], "delete"] : expected[status];
        expect(actionsFor(status, profile).sort(), `${status}/${profile}`).toEqual([...want].sort());
      }
    expect(actionsFor("open", null)).toEqual([]);
  });
});

/**
 * The if/else chain tickets.service#update had before the table (commit 801fde5), kept here as the oracle: the
 * table must decide exactly as it did for every ticket state and body (the API answers the same).
 */
const legacy = (t: TicketPlace, input: TicketChangeRequest, me: number) => {
  let action = "update";
  const patch: Partial<TicketPlace> = {};
  const transfer =
    (input.queueId !== undefined && input.queueId !== t.queueId) ||
    (input.whatsappId !== undefined && input.whatsappId !== t.whatsappId) ||
    (input.userId !== undefined && input.userId !== t.userId && input.userId !== me);
  if (transfer) {
    action = "transfer";
    if (input.queueId !== undefined) patch.queueId = input.queueId;
    if (input.whatsappId !== undefined && input.whatsappId !== null) patch.whatsappId = input.whatsappId;
    patch.userId = input.userId ?? null;
    patch.status = patch.userId === null ? "pending" : (input.status ?? (t.status === "closed" ? "open" : t.status));
  } else if (input.status === "open" && t.status === "pending") {
    action = "accept";
    patch.status = "open";
    patch.userId = input.userId ?? me;
  } else if (input.status === "open" && t.status === "closed") {
    action = "reopen";
    patch.status = "open";
    patch.userId = input.userId ?? me;
  } else if (input.status === "closed" && t.status !== "closed") {
    action = "resolve";
    patch.status = "closed";
  } else if (input.status === "pending" && t.status === "open") {
    action = "return";
    patch.status = "pending";
    patch.userId = null;
  } else if (input.status !== undefined && input.status !== t.status) {
    action = "update";
    patch.status = input.status;
  }
  const endBot = !!patch.status && patch.status !== "pending";
  const clearRating = action === "reopen" || (patch.status === "pending" && t.status === "closed");
  const unread = action === "resolve";
  return { action, next: { ...t, ...patch }, endBot, clearRating, unread, lifecycle: Object.keys(patch).length > 0 };
};

describe("the table decides as the old if/else did", () => {
  it("for every ticket state × body (status, user, queue, connection)", () => {
    const users = [null, ME, OTHER, 11];
    const ids = [null, 1, 2];
    let checked = 0;
    for (const status of STATUSES)
      for (const userId of users)
        for (const queueId of ids)
          for (const whatsappId of [1, 2]) {
            const t: TicketPlace = { status, userId, queueId, whatsappId };
            for (const rs of [undefined, ...STATUSES])
              for (const ru of [undefined, ...users])
                for (const rq of [undefined, ...ids])
                  for (const rw of [undefined, ...ids]) {
                    const req: TicketChangeRequest = {};
                    if (rs !== undefined) req.status = rs;
                    if (ru !== undefined) req.userId = ru;
                    if (rq !== undefined) req.queueId = rq;
                    if (rw !== undefined) req.whatsappId = rw;
                    const old = legacy(t, req, ME);
                    const plan = planTicketChange(t, req, ME);
                    const where = JSON.stringify({ t, req });
                    if (!old.lifecycle) {
                      expect(plan, where).toBeNull();
                    } else {
                      expect(plan, where).not.toBeNull();
                      expect(plan!.action, where).toBe(old.action);
                      expect(plan!.next, where).toEqual(old.next);
                      expect(plan!.effects.includes("endBot"), where).toBe(old.endBot);
                      expect(plan!.effects.includes("clearRating"), where).toBe(old.clearRating);
                      expect(plan!.effects.includes("clearUnread"), where).toBe(old.unread);
                    }
                    checked++;
                  }
          }
    expect(checked).toBe(3 * 4 * 3 * 2 * 4 * 5 * 4 * 4);
  });
});
