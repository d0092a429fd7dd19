import { describe, expect, it } from "vitest";
import { duplicateGroups, numberKey, type DuplicateCandidate } from "./contact-duplicates";

const c = (id: number, name: string, number: string, extra: Partial<DuplicateCandidate> = {}): DuplicateCandidate => ({ id, name, number, email: "", lid: null, isGroup: false, ...extra });

describe("duplicate contacts", () => {
  it("joins a number with and without the ninth digit, country code and formatting", () => {
    expect(numberKey("(11) 98888-7777")).toBe("5511988887777");
    expect(numberKey("551188887777")).toBe("5511988887777");
    expect(numberKey("+55 11 98888-7777")).toBe("5511988887777");
    const groups = duplicateGroups([c(1, "Marta", "5511988887777"), c(2, "Marta S", "551188887777"), c(3, "Outro", "5511911112222")]);
    expect(groups).toEqual([{ reason: "number", contacts: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })] }]);
  });
  it("groups by e-mail (any case), LID, and similar name with the same last 8 digits", () => {
    const groups = duplicateGroups([
      c(1, "Ana", "5511900000001", { email: "Ana@x.com" }),
      c(2, "Bia", "5511900000002", { email: " ana@x.com" }),
      c(3, "Caio", "5511900000003", { lid: "777" }),
      c(4, "Caio", "", { lid: "777" }),
      c(5, "Márta Souza", "351912345678"),
      c(6, "marta", "5511912345678"),
      c(7, "Group", "5511900000001", { isGroup: true }),
    ]);
    expect(groups.map((g) => [g.reason, g.contacts.map((x) => x.id)])).toEqual([
      ["email", [1, 2]],
      ["lid", [3, 4]],
      ["name", [5, 6]],
    ]);
  });
  it("does not repeat a pair already grouped by number as a name group", () => {
    expect(duplicateGroups([c(1, "Marta", "5511988887777"), c(2, "Marta", "551188887777")]).map((g) => g.reason)).toEqual(["number"]);
  });
});
