import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { FlowListItem } from "@atende/shared/contracts/http/flows";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { ConnectionsPage } from "../../connections/components/connections-page";
import { QueueDialog } from "../../queues/components/queue-dialog";

/**
 * Issue 30: the connection form and the queue form offer the flow a new conversation starts with (published flows
 * only) and save its id as `flowId`; without the integrations flag the picker is not offered.
 */
const flow = (id: number, name: string, publishedVersion: number | null): FlowListItem => ({
  id,
  name,
  description: "",
  triggers: [],
  publishedVersion,
  nodeCount: 3,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
});
const flows = { flows: [flow(4, "Boas-vindas", 2), flow(5, "Rascunho", null)] };

const pick = async (name: string) => {
  await userEvent.click(screen.getByRole("combobox", { name: "Fluxo" }));
  const list = await screen.findByRole("listbox");
  expect(within(list).queryByRole("option", { name: "Rascunho" })).toBeNull();
  await userEvent.click(within(list).getByRole("option", { name }));
};

describe("flow pickers", { timeout: 90_000 }, () => {
  it("the queue form offers the published flows and saves the chosen one as flowId", async () => {
    const { calls } = mockFetch({
      "GET /api/prompt": [],
      "GET /api/queueIntegration": [],
      "GET /api/flows": flows,
      "POST /api/queue": async (req: Request) => reply(201, { id: 7, companyId: 2, mediaPath: null, mediaName: null, ...(await req.json()) }),
      "GET /api/queue-options": [],
    });
    renderWithApp(<QueueDialog queue={null} onClose={() => undefined} />, { route: "/queues", user: aUser(), plan: aPlan() });
    await userEvent.type(await screen.findByLabelText("Nome"), "Financeiro");
    await userEvent.click(screen.getByRole("radio", { name: "#4CAF50" }));
    await pick("Boas-vindas");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(await calls.find((c) => c.method === "POST")!.json()).toMatchObject({ name: "Financeiro", flowId: 4 });
  });

  it("the queue form has no flow picker without the integrations flag", async () => {
    mockFetch({ "GET /api/prompt": [], "GET /api/queueIntegration": [], "GET /api/flows": flows });
    renderWithApp(<QueueDialog queue={null} onClose={() => undefined} />, { route: "/queues", user: aUser(), plan: aPlan({ useIntegrations: false }) });
    await screen.findByLabelText("Nome");
    expect(screen.queryByRole("combobox", { name: "Fluxo" })).toBeNull();
  });

  it("the connection form offers the published flows (Integrations tab) and saves the chosen one as flowId", async () => {
    const { calls } = mockFetch({
      "GET /api/whatsapp/": [],
      "GET /api/queue": [],
      "GET /api/prompt": [],
      "GET /api/queueIntegration": [],
      "GET /api/flows": flows,
      "POST /api/whatsapp": (req: Request) => req.json().then((b) => reply(200, { id: 9, status: "OPENING", ...(b as object) })),
    });
    renderWithApp(<ConnectionsPage />, { route: "/connections", user: aUser(), plan: aPlan() });
    await userEvent.click(await screen.findByTestId("add-connection"));
    await userEvent.type(screen.getByTestId("field-name"), "Loja");
    await userEvent.click(screen.getByRole("tab", { name: "Integrações" }));
    await pick("Boas-vindas");
    await userEvent.click(screen.getByTestId("save-whatsapp"));
    const isPost = (c: Request) => c.method === "POST" && new URL(c.url).pathname === "/api/whatsapp";
    await waitFor(() => expect(calls.some(isPost)).toBe(true));
    expect(await calls.find(isPost)!.json()).toMatchObject({ name: "Loja", flowId: 4 });
  });
});
