import { describe, expect, it } from "vitest";
import { phoneContactOf } from "./baileys.provider";

describe("Baileys contacts as phone-book entries", () => {
  it("keeps people by number and/or LID with the name saved on the phone first, and drops groups and broadcasts", () => {
    expect(phoneContactOf({ id: "5511988887777@s.whatsapp.net", name: "Ana da Padaria", notify: "Ana" })).toEqual({
      jid: "5511988887777@s.whatsapp.net",
      number: "5511988887777",
      name: "Ana da Padaria",
    });
    expect(phoneContactOf({ id: "123456789012345@lid", phoneNumber: "5521977776666@s.whatsapp.net", notify: "Beto" })).toEqual({
      jid: "5521977776666@s.whatsapp.net",
      number: "5521977776666",
      lid: "123456789012345",
      name: "Beto",
    });
    expect(phoneContactOf({ id: "123456789012345@lid" })).toEqual({ jid: "123456789012345@lid", lid: "123456789012345" });
    expect(phoneContactOf({ id: "120363025555555555@g.us", name: "Grupo" })).toBeNull();
    expect(phoneContactOf({ id: "status@broadcast" })).toBeNull();
  });
});
