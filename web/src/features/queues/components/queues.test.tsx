import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { QueueDialog } from "./queue-dialog";
import { maskTime } from "../../../components/ui/schedules-editor";

const withSchedule = (value: string) => aUser({ company: { ...aUser().company, settings: [{ key: "scheduleType", value }] } });
const pickers = { "GET /api/prompt": [], "GET /api/queueIntegration": [], "GET /api/flows": { flows: [] } };

describe("queue dialog", { timeout: 30_000 }, () => {
  it("masks working-hour times as HH:MM", () => {
    expect(maskTime("0730")).toBe("07:30");
    expect(maskTime("7")).toBe("7");
    expect(maskTime("12:345")).toBe("12:34");
  });

  it("shows the hours tab only with schedule type 'queue'", async () => {
    mockFetch(pickers);
    const { unmount } = renderWithApp(<QueueDialog queue={null} onClose={() => undefined} />, { route: "/queues", user: withSchedule("disabled"), plan: aPlan() });
    await screen.findByLabelText("Nome");
    expect(screen.queryByRole("tab", { name: "Horários de Atendimento" })).toBeNull();
    unmount();
    mockFetch(pickers);
    renderWithApp(<QueueDialog queue={null} onClose={() => undefined} />, { route: "/queues", user: withSchedule("queue"), plan: aPlan() });
    await userEvent.click(await screen.findByRole("tab", { name: "Horários de Atendimento" }));
    expect(screen.getByText("Clique em salvar para registar as alterações")).toBeInTheDocument();
    expect(screen.getByLabelText("Sábado Fim")).toHaveValue("12:00");
  });

  it("saves name, palette colour and default hours; then offers the chatbot tree", async () => {
    const { calls } = mockFetch({
      ...pickers,
      "POST /api/queue": async (req: Request) => reply(201, { id: 7, companyId: 2, mediaPath: null, mediaName: null, ...(await req.json()) }),
      "GET /api/queue-options": [],
    });
    renderWithApp(<QueueDialog queue={null} onClose={() => undefined} />, { route: "/queues", user: withSchedule("disabled"), plan: aPlan() });
    await userEvent.type(await screen.findByLabelText("Nome"), "Financeiro");
    await userEvent.click(screen.getByRole("radio", { name: "#4CAF50" }));
    await userEvent.type(screen.getByLabelText("Mensagem de saudação"), "Oi");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar" }));
    await screen.findByRole("button", { name: "Adicionar opção" });
    const post = calls.find((c) => c.method === "POST")!;
    expect(await post.json()).toMatchObject({ name: "Financeiro", color: "#4CAF50", greetingMessage: "Oi", orderQueue: null, schedules: DEFAULT_SCHEDULES });
    await waitFor(() => expect(calls.some((c) => c.url.includes("/api/queue-options"))).toBe(true));
  });
});
