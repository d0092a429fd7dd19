import { describe, expect, it } from "vitest";
import { daysUntilDue, isCompanyExpired, shouldWarnDueDate } from "./auth/auth";
import { addMonths, formatDate, formatShortDateTime } from "./format/dates";
import { canonicalBrazilianNumber, formatPhone, pairingPhoneNumber } from "./format/phone";
import { visibleMenuItems } from "./menu/menu";
import { can } from "./permissions/permissions";
import { isOverPlanLimit, planFlagsOf } from "./plans/plan";
import { canSeeTicket } from "./tickets/visibility";

const allFlags = planFlagsOf({ useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true });

describe("side menu gating", () => {
  it("an attendant sees no admin item, whatever the plan", () => {
    const keys = visibleMenuItems({ profile: "user", super: false, campaignsEnabled: true }, allFlags).map((i) => i.key);
    expect(keys).toEqual(["tickets", "quickMessages", "kanban", "todolist", "contacts", "schedules", "tags", "chats", "helps"]);
  });
  it("an admin sees the management items but not announcements unless super", () => {
    const admin = visibleMenuItems({ profile: "admin", super: false, campaignsEnabled: true }, allFlags).map((i) => i.key);
    expect(admin).toContain("connections");
    expect(admin).toContain("campaigns");
    expect(admin).not.toContain("announcements");
    expect(admin).toContain("reports");
    const operator = visibleMenuItems({ profile: "admin", super: true, campaignsEnabled: true }, allFlags).map((i) => i.key);
    expect(operator).toContain("announcements");
  });
  it("plan flags and the campaignsEnabled setting hide their items", () => {
    const flags = planFlagsOf({ useKanban: false, useCampaigns: true });
    const keys = visibleMenuItems({ profile: "admin", super: false, campaignsEnabled: false }, flags).map((i) => i.key);
    expect(keys).not.toContain("kanban");
    expect(keys).not.toContain("schedules");
    expect(keys).not.toContain("campaigns");
    expect(keys).not.toContain("messagesApi");
    expect(keys).toContain("queues");
  });
});

describe("permissions and plan limits", () => {
  it("the user profile may do nothing of the rule table; admin everything", () => {
    expect(can("user", "ticket-options:deleteTicket")).toBe(false);
    expect(can("admin", "ticket-options:deleteTicket")).toBe(true);
    expect(can(undefined, "dashboard:view")).toBe(false);
  });
  it("refuses the record that would go over the plan", () => {
    expect(isOverPlanLimit({ users: 3, connections: 1, queues: 2 }, "users", 2)).toBe(false);
    expect(isOverPlanLimit({ users: 3, connections: 1, queues: 2 }, "users", 3)).toBe(true);
  });
});

describe("due dates", () => {
  const now = new Date("2026-11-22T15:00:00Z");
  it("counts calendar days and expires after the due day", () => {
    expect(daysUntilDue("2026-11-25T00:00:00Z", now)).toBe(3);
    expect(isCompanyExpired("2026-11-22T00:00:00Z", now)).toBe(false);
    expect(isCompanyExpired("2026-11-21T23:00:00Z", now)).toBe(true);
    expect(isCompanyExpired(null, now)).toBe(false);
  });
  it("warns when fewer than 5 days remain", () => {
    expect(shouldWarnDueDate("2026-11-26T00:00:00Z", now)).toBe(true);
    expect(shouldWarnDueDate("2026-11-27T00:00:00Z", now)).toBe(false);
    expect(shouldWarnDueDate("2026-11-20T00:00:00Z", now)).toBe(false);
  });
});

describe("formatting", () => {
  it("formats phone numbers per spec 2 section 5", () => {
    expect(formatPhone("5511987654321@c.us")).toBe("+55 (11) 98765-4321");
    expect(formatPhone("551187654321")).toBe("+55 (11) 8765-4321");
  });
  it("gives one identity to a Brazilian mobile with and without the ninth digit", () => {
    expect(canonicalBrazilianNumber("551187654321")).toBe("5511987654321");
    expect(canonicalBrazilianNumber("+55 (11) 98765-4321")).toBe("5511987654321");
    // landlines (starting 2-5) keep 8 digits
    expect(canonicalBrazilianNumber("551133334444")).toBe("551133334444");
  });
  it("reads a Brazilian number typed for pairing-code login", () => {
    expect(pairingPhoneNumber("+55 (11) 94444-3333")).toBe("5511944443333");
    expect(pairingPhoneNumber("11 94444-3333")).toBe("5511944443333");
    expect(pairingPhoneNumber("(11) 3333-4444")).toBe("551133334444");
    expect(pairingPhoneNumber("5511944443333")).toBe("5511944443333");
    for (const bad of ["", "12345", "+1 (415) 555-0100", "55 (01) 94444-3333", "55 (11) 84444-33333", "11 9444a-3333", "5511944443333444"]) expect(pairingPhoneNumber(bad)).toBeNull();
  });
  it("adds months by recurrence, clamping month ends", () => {
    expect(addMonths("2026-01-31T12:00:00Z", 1).toISOString()).toBe("2026-02-28T12:00:00.000Z");
    expect(addMonths("2026-11-22T12:00:00Z", 12).toISOString()).toBe("2027-11-22T12:00:00.000Z");
  });
  it("formats dates as dd/MM/yyyy and dd/MM/yy HH:mm", () => {
    expect(formatDate(new Date(2026, 10, 2, 9, 5))).toBe("02/11/2026");
    expect(formatShortDateTime(new Date(2026, 10, 2, 9, 5))).toBe("02/11/26 09:05");
    expect(formatDate("garbage")).toBe("");
  });
});

describe("ticket visibility", () => {
  const attendant = { userId: 7, profile: "user" as const, queueIds: [1], allTicket: "desabled" as const };
  it("attendants see their queues and their own tickets only", () => {
    expect(canSeeTicket(attendant, { status: "pending", queueId: 1, userId: null })).toBe(true);
    expect(canSeeTicket(attendant, { status: "pending", queueId: 2, userId: null })).toBe(false);
    expect(canSeeTicket(attendant, { status: "open", queueId: 2, userId: 7 })).toBe(true);
    expect(canSeeTicket(attendant, { status: "pending", queueId: null, userId: null })).toBe(false);
  });
  it("allTicket adds queue-less tickets; admins see everything", () => {
    expect(canSeeTicket({ ...attendant, allTicket: "enabled" }, { status: "pending", queueId: null, userId: null })).toBe(true);
    expect(canSeeTicket({ ...attendant, profile: "admin" }, { status: "open", queueId: 9, userId: 3 })).toBe(true);
  });
});
