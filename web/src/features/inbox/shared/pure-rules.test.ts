import { describe, expect, it } from "vitest";
import { ageLabel } from "./age-label";
import { startsNewDay } from "./date-separators";
import { parseLocationBody, parseVcard } from "./message-parsers";
import { ALL_REACTIONS, QUICK_REACTIONS } from "./reactions";

const now = new Date("2026-05-10T12:00:00Z");
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe("age label", () => {
  it("colours by age as the spec says", () => {
    expect(ageLabel(ago(1), now).color).toBe("default");
    expect(ageLabel(ago(3), now)).toEqual({ unit: "minutes", value: 3, color: "green" });
    expect(ageLabel(ago(10), now).color).toBe("green");
    expect(ageLabel(ago(20), now).color).toBe("default");
    expect(ageLabel(ago(30), now)).toEqual({ unit: "minutes", value: 30, color: "orange" });
    expect(ageLabel(ago(59), now).color).toBe("orange");
    expect(ageLabel(ago(60), now)).toEqual({ unit: "hours", value: 1, color: "red" });
    expect(ageLabel(ago(23 * 60 + 59), now)).toEqual({ unit: "hours", value: 23, color: "red" });
    expect(ageLabel(ago(24 * 60), now)).toEqual({ unit: "days", value: 1, color: "red" });
    expect(ageLabel(ago(50 * 60), now)).toEqual({ unit: "days", value: 2, color: "red" });
  });
});

describe("location and vcard bodies", () => {
  it("splits image|link|description", () => {
    expect(parseLocationBody("https://maps/img.png|https://maps.google.com/?q=1,2|Rua A, 10")).toEqual({
      imageUrl: "https://maps/img.png",
      link: "https://maps.google.com/?q=1,2",
      description: "Rua A, 10",
    });
    expect(parseLocationBody("data:image/png;base64,AAA|https://maps.google.com/?q=1,2")?.description).toBe("");
  });

  it("refuses non-http links and plain text", () => {
    expect(parseLocationBody("javascript:alert(1)|javascript:alert(2)")).toBeNull();
    expect(parseLocationBody("sem pipe")).toBeNull();
  });

  it("reads name and numbers from a vcard", () => {
    const card = "BEGIN:VCARD\nVERSION:3.0\nN:Silva;Maria;;;\nFN:Maria Silva\nitem1.TEL;waid=5511999990000:+55 11 99999-0000\nEND:VCARD";
    expect(parseVcard(card)).toEqual({ name: "Maria Silva", numbers: ["5511999990000"] });
    expect(parseVcard("texto")).toBeNull();
  });
});

describe("date separators", () => {
  it("starts a new day on the first message and on a calendar change", () => {
    expect(startsNewDay(undefined, "2026-05-10T12:00:00")).toBe(true);
    expect(startsNewDay("2026-05-10T08:00:00", "2026-05-10T12:00:00")).toBe(false);
    expect(startsNewDay("2026-05-10T23:00:00", "2026-05-11T00:10:00")).toBe(true);
  });
});

describe("reactions", () => {
  it("offers 6 quick emojis and about 70 in the full list", () => {
    expect(QUICK_REACTIONS).toHaveLength(6);
    expect(ALL_REACTIONS.length).toBeGreaterThanOrEqual(65);
    expect(new Set(ALL_REACTIONS).size).toBe(ALL_REACTIONS.length);
  });
});
