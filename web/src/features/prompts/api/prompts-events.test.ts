import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { PromptListResponse, PromptResponse } from "@atende/shared/contracts/http/prompts";
import { applyPromptEvent, promptKeys } from "./prompts";

const prompt = (id: number, name: string): PromptResponse => ({
  id,
  name,
  prompt: "p",
  voice: "texto",
  voiceKey: "",
  voiceRegion: "",
  maxTokens: 100,
  temperature: 1,
  apiKey: "••••••••",
  queueId: 1,
  queue: { id: 1, name: "Vendas", color: "#111111" },
  maxMessages: 10,
  model: "",
  baseUrl: "",
  handoverKeywords: ["atendente", "humano"],
  monthlyTokenCap: 0,
  tokensThisMonth: 0,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});
const names = (qc: QueryClient) => qc.getQueryData<PromptListResponse>(promptKeys.list())!.prompts.map((p) => p.name);

describe("live prompt events", () => {
  it("create appends, update replaces, delete removes by promptId", () => {
    const qc = new QueryClient();
    qc.setQueryData<PromptListResponse>(promptKeys.list(), { prompts: [prompt(1, "Um"), prompt(2, "Dois")], usage: { month: "2026-01", promptTokens: 0, completionTokens: 0, totalTokens: 0 } });
    applyPromptEvent(qc, { action: "create", prompt: prompt(3, "Três") });
    expect(names(qc)).toEqual(["Um", "Dois", "Três"]);
    applyPromptEvent(qc, { action: "update", prompt: prompt(1, "Um editado") });
    expect(names(qc)).toEqual(["Um editado", "Dois", "Três"]);
    applyPromptEvent(qc, { action: "delete", promptId: 2 });
    expect(names(qc)).toEqual(["Um editado", "Três"]);
  });
});
