import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { AudioTranscript } from "../../inbox/messages/components/audio-transcript";
import { botFieldsFromRecord, PromptBotFields, type PromptBotFieldsValue } from "./prompt-bot-fields";
import { CompanyTokens, PromptTokens } from "./prompt-usage";

function Harness({ onValue }: { onValue: (v: PromptBotFieldsValue) => void }) {
  const [value, setValue] = useState(botFieldsFromRecord(null));
  return (
    <PromptBotFields
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue(v);
      }}
    />
  );
}

describe("prompt bot fields (issue 11)", () => {
  it("starts with the default words and no cap, and edits model, endpoint, words and cap", () => {
    let last: PromptBotFieldsValue | null = null;
    render(<Harness onValue={(v) => (last = v)} />);
    expect((screen.getByLabelText("Palavras para chamar um atendente") as HTMLInputElement).value).toBe("atendente, humano");
    expect((screen.getByLabelText("Limite mensal de tokens") as HTMLInputElement).value).toBe("0");
    expect(screen.getByText("Vazio usa gpt-4o-mini.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Modelo"), { target: { value: "llama-3.1-70b" } });
    fireEvent.change(screen.getByLabelText("Endereço da API (compatível com OpenAI)"), { target: { value: "https://api.groq.com/openai/v1" } });
    fireEvent.change(screen.getByLabelText("Limite mensal de tokens"), { target: { value: "50000" } });
    expect(last).toEqual({ model: "llama-3.1-70b", baseUrl: "https://api.groq.com/openai/v1", handoverKeywords: "atendente, humano", monthlyTokenCap: 50000 });
  });

  it("shows the tokens used this month, against the cap when there is one", () => {
    render(
      <>
        <PromptTokens used={1234} cap={0} />
        <PromptTokens used={45000} cap={50000} />
        <CompanyTokens month="2026-11" total={46234} />
      </>,
    );
    const cells = screen.getAllByTestId("prompt-tokens");
    expect(cells[0]!.textContent).toBe("1.234");
    expect(cells[1]!.textContent).toContain("45.000 de 50.000");
    expect(screen.getByRole("progressbar", { name: "90% do limite mensal" })).toBeTruthy();
    expect(screen.getByTestId("company-tokens").textContent).toBe("Tokens usados pela empresa em novembro de 2026: 46.234");
  });

  it("shows an audio's transcript under it, and nothing without one", () => {
    const { rerender } = render(<AudioTranscript transcript="qual o preço do pão?" />);
    expect(screen.getByTestId("audio-transcript").textContent).toBe("Transcrição: qual o preço do pão?");
    rerender(<AudioTranscript transcript={null} />);
    expect(screen.queryByTestId("audio-transcript")).toBeNull();
  });
});
