import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { QueueResponse } from "@atende/shared/contracts/http/queues";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { QueueDialog } from "./queue-dialog";

const pickers = { "GET /api/prompt": [], "GET /api/queueIntegration": [], "GET /api/queue-options": [], "GET /api/flows": { flows: [] } };
const queue: QueueResponse = {
  id: 7,
  companyId: 2,
  name: "Vendas",
  color: "#4CAF50",
  greetingMessage: "Oi",
  outOfHoursMessage: "",
  orderQueue: 1,
  integrationId: null,
  promptId: null,
  schedules: DEFAULT_SCHEDULES,
  mediaPath: null,
  mediaName: null,
  sla: { firstResponseMinutes: 15, nextResponseMinutes: null, resolutionMinutes: 240 },
};

describe("queue dialog: SLA targets (issue 13)", { timeout: 30_000 }, () => {
  it("shows the queue's targets and saves edits; blank targets are none, all blank is no SLA", async () => {
    const { calls } = mockFetch({ ...pickers, "PUT /api/queue/7": async (req: Request) => reply(200, { ...queue, ...(await req.json()) }) });
    const { unmount } = renderWithApp(<QueueDialog queue={queue} onClose={() => undefined} />, { route: "/queues", user: aUser(), plan: aPlan() });
    const first = await screen.findByLabelText("Primeira resposta");
    expect(first).toHaveValue(15);
    expect(screen.getByLabelText("Resolução")).toHaveValue(240);
    expect(screen.getByLabelText("Próxima resposta (opcional)")).toHaveValue(null);
    await userEvent.clear(first);
    await userEvent.type(first, "30");
    await userEvent.type(screen.getByLabelText("Próxima resposta (opcional)"), "10");
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect((await calls.filter((c) => c.method === "PUT").at(-1)!.json()).sla).toEqual({ firstResponseMinutes: 30, nextResponseMinutes: 10, resolutionMinutes: 240 });
    unmount();

    const again = mockFetch({ ...pickers, "PUT /api/queue/7": async (req: Request) => reply(200, { ...queue, ...(await req.json()) }) });
    renderWithApp(<QueueDialog queue={queue} onClose={() => undefined} />, { route: "/queues", user: aUser(), plan: aPlan() });
    await userEvent.clear(await screen.findByLabelText("Primeira resposta"));
    await userEvent.clear(screen.getByLabelText("Resolução"));
    await userEvent.click(screen.getByRole("button", { name: "Salvar" }));
    await waitFor(() => expect(again.calls.some((c) => c.method === "PUT")).toBe(true));
    const last = again.calls.filter((c) => c.method === "PUT").at(-1)!;
    expect((await last.json()).sla).toBeNull();
  });
});
