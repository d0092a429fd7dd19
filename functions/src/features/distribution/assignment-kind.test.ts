import { describe, expect, it } from "vitest";
import type { TicketSnapshot } from "../inbox/inbox-ports";
import { manualAssignment } from "./assignment-kind";

const t = (over: Partial<TicketSnapshot>): TicketSnapshot => ({ id: 1, companyId: 1, status: "pending", userId: null, queueId: 3, contactId: 4, isGroup: false, bot: { stage: "none" }, ...over });

describe("manualAssignment", () => {
  it("an attendant accepting a waiting ticket is 'accepted'", () => {
    expect(manualAssignment(t({}), t({ status: "open", userId: 7 }), 7)).toBe("accepted");
  });
  it("a ticket handed to another attendant is 'transferred', whoever does it", () => {
    expect(manualAssignment(t({ status: "open", userId: 7 }), t({ status: "open", userId: 8 }), 7)).toBe("transferred");
    expect(manualAssignment(t({ status: "open", userId: 7 }), t({ status: "open", userId: 8 }), 1)).toBe("transferred");
  });
  it("the system's changes (automatic distribution) and changes that move no owner are not counted here", () => {
    expect(manualAssignment(t({}), t({ status: "open", userId: 7 }), null)).toBeNull();
    expect(manualAssignment(t({ status: "open", userId: 7 }), t({ status: "open", userId: 7, queueId: 5 }), 7)).toBeNull();
    expect(manualAssignment(t({ status: "open", userId: 7 }), t({ status: "closed", userId: 7 }), 7)).toBeNull();
    expect(manualAssignment(null, t({ status: "pending" }), 7)).toBeNull();
  });
});
