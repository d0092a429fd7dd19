import { describe, expect, it } from "vitest";
import { checkAnswer, isCnpj, isCpf } from "./answer-validators";

describe("question validations (issue 30)", () => {
  it("cpf and cnpj check digits", () => {
    expect(isCpf("529.982.247-25")).toBe(true);
    expect(isCpf("529.982.247-24")).toBe(false);
    expect(isCpf("111.111.111-11")).toBe(false);
    expect(isCnpj("11.222.333/0001-81")).toBe(true);
    expect(isCnpj("11.222.333/0001-80")).toBe(false);
    expect(checkAnswer("cpf", "529.982.247-25")).toBe("52998224725");
  });
  it("email, number, date, phone, text", () => {
    expect(checkAnswer("email", "Ana@Example.com ")).toBe("ana@example.com");
    expect(checkAnswer("email", "ana@")).toBeNull();
    expect(checkAnswer("number", "1.234,5")).toBe("1234.5");
    expect(checkAnswer("number", "12a")).toBeNull();
    expect(checkAnswer("date", "29/02/2024")).toBe("2024-02-29");
    expect(checkAnswer("date", "30/02/2024")).toBeNull();
    expect(checkAnswer("phone", "(11) 98765-4321")).toBe("11987654321");
    expect(checkAnswer("phone", "abc")).toBeNull();
    expect(checkAnswer("text", "  ")).toBeNull();
  });
});
