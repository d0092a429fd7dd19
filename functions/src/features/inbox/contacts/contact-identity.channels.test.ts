import { describe, expect, it } from "vitest";
import { chatJidOf, identitiesOf } from "./contact-identity";

describe("contact identity per channel (docs/adr/0088)", () => {
  it("a channel user is identified by its user id, WhatsApp parties as before", () => {
    expect(identitiesOf({ jid: "5550001@telegram" })).toEqual([{ kind: "C", value: "telegram:5550001" }]);
    expect(identitiesOf({ jid: "5511987654321@s.whatsapp.net" })).toEqual([{ kind: "N", value: "5511987654321" }]);
    expect(identitiesOf({ jid: "123@lid" })).toEqual([{ kind: "L", value: "123" }]);
    expect(identitiesOf({ jid: "x@unknown" })).toEqual([]);
  });
  it("sends to a channel contact by its channel jid, to a WhatsApp contact by number", () => {
    expect(chatJidOf({ number: "", isGroup: false, lid: null, channel: "telegram", channelUserId: "5550001" })).toBe("5550001@telegram");
    expect(chatJidOf({ number: "5511987654321", isGroup: false, lid: null })).toBe("5511987654321@s.whatsapp.net");
  });
});
