import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { QueueIntegrationListResponse, QueueIntegrationResponse } from "@atende/shared/contracts/http/queue-integrations";
import { applyQueueIntegrationEvent, queueIntegrationKeys } from "./queue-integrations";

const item = (id: number, name: string): QueueIntegrationResponse => ({
  id,
  name,
  type: "webhook",
  projectName: name,
  jsonContent: "",
  language: null,
  urlN8N: "https://h.example.com",
  typebotSlug: "",
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: "",
  typebotKeywordRestart: "",
  typebotUnknownMessage: "",
  typebotRestartMessage: "",
  hasWebhookSecret: true,
  companyId: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});
const pages = (...lists: QueueIntegrationResponse[][]) => ({ pages: lists.map((l) => ({ queueIntegrations: l, hasMore: false })), pageParams: lists.map((_l, i) => i + 1) });
type Data = { pages: QueueIntegrationListResponse[] };
const names = (qc: QueryClient, search: string) => (qc.getQueryData<Data>(queueIntegrationKeys.list(search))?.pages ?? []).flatMap((p) => p.queueIntegrations.map((i) => i.name));

describe("live integration events", () => {
  it("create adds on top of the lists whose search it matches, update replaces in place, delete removes by integrationId", () => {
    const qc = new QueryClient();
    qc.setQueryData(queueIntegrationKeys.list(""), pages([item(1, "Alfa"), item(2, "Beta")], [item(3, "Gama")]));
    qc.setQueryData(queueIntegrationKeys.list("bet"), pages([item(2, "Beta")]));

    applyQueueIntegrationEvent(qc, { action: "create", queueIntegration: item(4, "Delta") });
    expect(names(qc, "")).toEqual(["Delta", "Alfa", "Beta", "Gama"]);
    expect(names(qc, "bet")).toEqual(["Beta"]);

    applyQueueIntegrationEvent(qc, { action: "update", queueIntegration: item(3, "Gama 2") });
    expect(names(qc, "")).toEqual(["Delta", "Alfa", "Beta", "Gama 2"]);

    applyQueueIntegrationEvent(qc, { action: "delete", integrationId: 2 });
    expect(names(qc, "")).toEqual(["Delta", "Alfa", "Gama 2"]);
    expect(names(qc, "bet")).toEqual([]);
  });
});
