import { describe, expect, it } from "vitest";
import { automaticSkippedNote, automaticTemplateValues } from "./automatic-messages";

describe("automatic messages outside the window", () => {
  it("fills an automatic template's variables by convention: {{1}} the name, {{2}} the ticket, named ones by their names; others stay empty", () => {
    const v = { name: "Ana", number: "5511999990000", ticketId: 42, queue: "Vendas", user: "Beto" };
    expect(automaticTemplateValues({ header: [], body: ["1", "2"] }, v)).toEqual({ header: {}, body: { "1": "Ana", "2": "42" } });
    expect(automaticTemplateValues({ header: ["nome"], body: ["protocolo", "fila", "atendente", "numero", "cupom"] }, v)).toEqual({
      header: { nome: "Ana" },
      body: { protocolo: "42", fila: "Vendas", atendente: "Beto", numero: "5511999990000", cupom: "" },
    });
  });

  it("the internal note names the message and the reason", () => {
    expect(automaticSkippedNote("transfer", "no_template")).toContain("aviso de transferência");
    expect(automaticSkippedNote("rating", "template_not_approved")).toMatch(/pedido de avaliação.*não está aprovado/);
  });
});
