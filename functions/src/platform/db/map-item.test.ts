import { describe, expect, it } from "vitest";
import { mapItem } from "./map-item";

type Thing = { id: number; name: string; note?: string | null };
const toThing = mapItem<Thing>({ id: true, name: true, note: true });

describe("mapItem", () => {
  it("keeps only the record's fields, in the item's order", () => {
    const item = { pk: "CO#1", sk: "THING#1", gsi1pk: "x", entity: "thing", name: "A", nameLower: "a", version: 3, passwordHash: "h", id: 1 };
    const out = toThing(item);
    expect(out).toEqual({ name: "A", id: 1 });
    expect(Object.keys(out)).toEqual(["name", "id"]);
  });

  it("keeps an optional field when stored, null included, and leaves it out when absent", () => {
    expect(toThing({ id: 1, name: "A", note: null })).toEqual({ id: 1, name: "A", note: null });
    expect("note" in toThing({ id: 1, name: "A" })).toBe(false);
  });

  it("does not take a field from the prototype chain", () => {
    expect(toThing(Object.assign(Object.create({ id: 9 }) as Record<string, unknown>, { name: "A", toString: "x" }))).toEqual({ name: "A" });
  });
});
