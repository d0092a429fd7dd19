import { describe, expect, it } from "vitest";
import { namespaces as enFirst } from "../locales/en-first-screen";
import { namespaces as enRest } from "../locales/en";
import { namespaces as esFirst } from "../locales/es-first-screen";
import { namespaces as esRest } from "../locales/es";
import { namespaces as ptFirst } from "../locales/pt-first-screen";
import { namespaces as ptRest } from "../locales/pt";
import { FIRST_SCREEN_NAMESPACES } from "./i18n";

const all = import.meta.glob<unknown>("../locales/*/*.json", { eager: true, import: "default" });
const namesOf = (lng: string) =>
  Object.keys(all)
    .filter((path) => path.startsWith(`../locales/${lng}/`))
    .map((path) => /([\w-]+)\.json$/.exec(path)![1])
    .sort();

describe("translation chunks (issue 15: the first screen loads only its own namespaces)", () => {
  it.each([
    ["pt", ptFirst, ptRest],
    ["en", enFirst, enRest],
    ["es", esFirst, esRest],
  ] as const)("%s: the first-screen chunk holds exactly FIRST_SCREEN_NAMESPACES, the other chunk every other namespace", (lng, first, rest) => {
    expect(Object.keys(first).sort()).toEqual([...FIRST_SCREEN_NAMESPACES].sort());
    expect(Object.keys(rest).filter((ns) => ns in first)).toEqual([]);
    expect([...Object.keys(first), ...Object.keys(rest)].sort()).toEqual(namesOf(lng));
  });
});
