import { describe, expect, it } from "vitest";
import { ANONYMOUS_SHIPPING, planErasure } from "./erasure-planner";
import { personFixture } from "./person-data.fixtures";

describe("erasure planner", () => {
  const data = personFixture();
  const plan = planErasure(data);
  const deleted = plan.steps.filter((s) => s.op === "delete").map((s) => `${s.key.pk}|${s.key.sk}`);

  it("deletes every item that exists only because of the person", () => {
    for (const i of [data.contact!, ...data.identities, ...data.messages, ...data.notes, ...data.campaignLinks, ...data.listItems, ...data.listItemPointers, ...data.ticketPointers, ...data.pageCursors, ...data.numberChecks, data.optOut!])
      expect(deleted).toContain(`${i.pk}|${i.sk}`);
  });
  it("anonymises tickets and shippings instead (figures kept), and leaves the attention cycles alone", () => {
    const ticket = plan.steps.find((s) => s.what === "ticket");
    expect(ticket).toMatchObject({ op: "update", key: { pk: "CO#7", sk: "TICKET#0000000010" }, set: { lastMessage: "", lastMessageLc: "", chatJid: "" } });
    const shipping = plan.steps.find((s) => s.what === "shipping");
    expect(shipping).toMatchObject({ op: "update", set: ANONYMOUS_SHIPPING, remove: ["gsi1pk", "gsi1sk"] });
    expect(plan.steps.some((s) => s.key.sk.startsWith("CYCLE#"))).toBe(false);
  });
  it("anonymises a tagged ticket's copies with it, the contact's card on them too (docs/adr/0057)", () => {
    const tagged = { ...data, tickets: [{ ...data.tickets[0]!, tagIds: [5, 6] }] };
    const copies = planErasure(tagged).steps.filter((s) => s.what === "ticketTagCopy");
    expect(copies.map((s) => s.key)).toEqual([
      { pk: "CO#7#TTAG#0000000010", sk: "TAG#0000000005" },
      { pk: "CO#7#TTAG#0000000010", sk: "TAG#0000000006" },
    ]);
    for (const s of copies) expect(s).toMatchObject({ op: "update", set: { lastMessage: "", chatJid: "", contactCard: null } });
    expect(plan.steps.find((s) => s.what === "ticket")).toMatchObject({ set: { contactCard: null } });
  });
  it("decrements the counters that counted the person", () => {
    expect(plan.steps.filter((s) => s.op === "add")).toEqual([
      { op: "add", key: { pk: "CO#7", sk: "CONTACTLIST#0000000004" }, what: "listCount", add: { contactsCount: -1 } },
      { op: "add", key: { pk: "CO#7", sk: "COUNT#contacts" }, what: "contactCount", add: { count: -1 } },
    ]);
  });
  it("deletes the contact last, so a failed run can be repeated", () => {
    expect(plan.steps.at(-1)).toMatchObject({ op: "delete", what: "contact" });
  });
  it("lists the media objects and counts what it does", () => {
    expect(plan.mediaKeys).toEqual(["7/B2/foto.jpg"]);
    expect(plan.counts).toMatchObject({ message: 2, note: 1, ticket: 1, shipping: 1, listItem: 1, contact: 1, optOut: 1 });
  });
  it("is empty for a person with nothing left", () => {
    const empty = planErasure({ ...data, contact: null, identities: [], ticketPointers: [], tickets: [], cycles: [], notes: [], messages: [], campaignLinks: [], listItems: [], listItemPointers: [], listCounters: [], shippings: [], numberChecks: [], pageCursors: [], optOut: null });
    expect(empty.steps).toEqual([]);
  });
});
