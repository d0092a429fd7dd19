import { describe, expect, it } from "vitest";
import { searchedDigits } from "./phone";

describe("searchedDigits", () => {
  it("reads a number typed with phone punctuation", () => {
    expect(searchedDigits("(11) 97000-0102")).toBe("11970000102");
    expect(searchedDigits(" +55 11 9.7000/0102 ")).toBe("5511970000102");
    expect(searchedDigits("2026031000012")).toBe("2026031000012");
  });
  it("gives nothing for a name that has digits in it", () => {
    expect(searchedDigits("Loja 2")).toBe("");
    expect(searchedDigits("Cliente Relatório 1a2b3")).toBe("");
    expect(searchedDigits("")).toBe("");
  });
});
