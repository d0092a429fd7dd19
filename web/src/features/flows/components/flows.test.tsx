import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { FlowResponse } from "@atende/shared/contracts/http/flows";
import { FLOW_NODE_DATA } from "@atende/shared/domain/flows/flow";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import type { DocNode } from "../model/doc";
import { readText } from "./flow-toolbar";
import { FlowsPage } from "./flows-page";
import { NodeInspector } from "./node-inspector";

// React Flow measures nodes with ResizeObserver and reads the zoom from DOMMatrix: jsdom has neither
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
beforeEach(() => {
  vi.stubGlobal("ResizeObserver", NoopResizeObserver);
  vi.stubGlobal(
    "DOMMatrixReadOnly",
    class {
      m22 = 1;
    },
  );
});

const aFlow = (over: Partial<FlowResponse> = {}): FlowResponse => ({
  id: 7,
  companyId: 1,
  name: "Vendas",
  description: "",
  triggers: [],
  exitWords: ["sair"],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
    { id: "menu", type: "menu", position: { x: 0, y: 150 }, data: { text: "Escolha", options: [{ id: "1", label: "Vendas" }, { id: "2", label: "Suporte" }], invalidText: "", retries: 2 } },
    { id: "q", type: "transfer", position: { x: 0, y: 300 }, data: { queueId: 1 } },
  ],
  edges: [
    { id: "a", source: "start", target: "menu" },
    { id: "b", source: "menu", target: "q", sourceHandle: "1" },
  ],
  publishedVersion: null,
  versions: [],
  warnings: [],
  createdAt: "2026-11-01T10:00:00.000Z",
  updatedAt: "2026-11-01T10:00:00.000Z",
  ...over,
});

const pickers = { "GET /api/queue": [{ id: 1, name: "Vendas" }], "GET /api/tags/list": [] };
const openEditor = (routes: Record<string, unknown> = {}) => {
  const mocks = mockFetch({ "GET /api/flows/7": aFlow(), ...pickers, ...routes });
  renderWithApp(<FlowsPage />, { route: "/flows/7", path: "/flows/:flowId?", user: aUser({ profile: "admin" }) });
  return mocks;
};

describe("validation on the nodes", { timeout: 20_000 }, () => {
  it("marks the menu whose option 2 leads nowhere in red with the reason, and counts it in the toolbar", async () => {
    openEditor();
    const menu = await screen.findByTestId("flow-node-menu");
    expect(menu).toHaveAttribute("data-status", "error");
    expect(within(menu).getByTestId("flow-node-error")).toHaveTextContent("A opção 2 não leva a nenhum nó.");
    expect(screen.getByTestId("flow-node-q")).toHaveAttribute("data-status", "ok");
    expect(screen.getByTestId("flow-problems")).toHaveTextContent("1 erro(s)");
    expect(screen.getByTestId("flow-publish")).toBeDisabled();
  });

  it("shows warnings in amber (an unreachable node) without blocking publish", async () => {
    const flow = aFlow();
    flow.edges.push({ id: "c", source: "menu", target: "q", sourceHandle: "2" });
    flow.nodes.push({ id: "lost", type: "end", position: { x: 300, y: 0 }, data: { text: "", closeTicket: false } });
    mockFetch({ "GET /api/flows/7": flow, ...pickers });
    renderWithApp(<FlowsPage />, { route: "/flows/7", path: "/flows/:flowId?", user: aUser({ profile: "admin" }) });
    const lost = await screen.findByTestId("flow-node-lost");
    expect(lost).toHaveAttribute("data-status", "warning");
    expect(within(lost).getByTestId("flow-node-warning")).toHaveTextContent("Nó inalcançável a partir do início.");
    expect(screen.getByTestId("flow-publish")).toBeEnabled();
  });

  it("maps the server's ERR_FLOW_INVALID to the node at fault", async () => {
    const user = userEvent.setup();
    openEditor({
      "PUT /api/flows/7": reply(400, { error: "ERR_FLOW_INVALID", data: { errors: [{ code: "LOOP_WITHOUT_INPUT", nodeId: "q" }], warnings: [] } }),
    });
    fireEvent.change(await screen.findByTestId("flow-name"), { target: { value: "Vendas 2" } });
    await user.click(screen.getByTestId("flow-save"));
    // the name change is saved as it is, so the document equals what was sent: the server's issue shows on "q"
    await waitFor(() => expect(screen.getByTestId("flow-node-q")).toHaveAttribute("data-status", "error"));
    expect(within(screen.getByTestId("flow-node-q")).getByTestId("flow-node-error")).toHaveTextContent("Ciclo sem resposta do cliente");
  });
});

describe("undo and redo", { timeout: 20_000 }, () => {
  it("takes back a rename (one step for the burst) with the buttons and the keyboard", async () => {
    const user = userEvent.setup();
    openEditor();
    const name = await screen.findByTestId("flow-name");
    expect(screen.getByTestId("flow-undo")).toBeDisabled();
    fireEvent.change(name, { target: { value: "Vendas n" } });
    fireEvent.change(name, { target: { value: "Vendas novo" } });
    expect(name).toHaveValue("Vendas novo");
    await user.click(screen.getByTestId("flow-undo"));
    expect(name).toHaveValue("Vendas");
    await user.click(screen.getByTestId("flow-redo"));
    expect(name).toHaveValue("Vendas novo");
    fireEvent.keyDown(window, { key: "z", ctrlKey: true });
    expect(name).toHaveValue("Vendas");
    fireEvent.keyDown(window, { key: "z", ctrlKey: true, shiftKey: true });
    expect(name).toHaveValue("Vendas novo");
  });

  it("undoes a node added from the palette", async () => {
    const user = userEvent.setup();
    openEditor();
    await screen.findByTestId("flow-node-menu");
    await user.click(screen.getByTestId("palette-message"));
    expect(within(await screen.findByTestId("node-inspector")).getByText("Mensagem")).toBeInTheDocument(); // the new node is selected
    expect(document.querySelectorAll('[data-node-type="message"]')).toHaveLength(1);
    await user.click(screen.getByTestId("flow-undo"));
    expect(document.querySelectorAll('[data-node-type="message"]')).toHaveLength(0);
  });
});

describe("import and export", { timeout: 20_000 }, () => {
  it("exports the canvas as the shared flow JSON", async () => {
    const user = userEvent.setup();
    let blob: Blob | null = null;
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: (b: Blob) => ((blob = b), "blob:x"), revokeObjectURL: () => {} }));
    openEditor();
    await screen.findByTestId("flow-node-menu");
    await user.click(screen.getByTestId("flow-export"));
    const json = JSON.parse(await readText(blob as unknown as Blob)) as { name: string; nodes: { id: string }[]; edges: { sourceHandle?: string }[] };
    expect(json.name).toBe("Vendas");
    expect(json.nodes.map((n) => n.id)).toEqual(["start", "menu", "q"]);
    expect(json.edges[1]?.sourceHandle).toBe("1");
  });

  it("imports a JSON file onto the canvas and refuses one that is not a flow", async () => {
    const user = userEvent.setup();
    openEditor();
    await screen.findByTestId("flow-node-menu");
    const file = new File([JSON.stringify({ name: "Outro", nodes: [{ id: "start", type: "start", data: {} }, { id: "hello", type: "message", data: { text: "Oi {{contact.name}}" } }], edges: [{ source: "start", target: "hello" }] })], "f.json", { type: "application/json" });
    await user.upload(screen.getByTestId("flow-import-file"), file);
    expect(await screen.findByTestId("flow-node-hello")).toHaveTextContent("Oi {{contact.name}}");
    expect(screen.queryByTestId("flow-node-menu")).toBeNull();
    await user.upload(screen.getByTestId("flow-import-file"), new File(["{nope"], "bad.json", { type: "application/json" }));
    expect(await screen.findByText(/Arquivo inválido: não é um JSON/)).toBeInTheDocument();
    expect(screen.getByTestId("flow-node-hello")).toBeInTheDocument();
  });
});

describe("the inspector (react-hook-form + the shared node schema)", { timeout: 20_000 }, () => {
  const renderInspector = (node: DocNode) => {
    mockFetch(pickers);
    const onChange = vi.fn();
    renderWithApp(<NodeInspector node={node} onChange={onChange} onDelete={() => {}} />, { user: aUser({ profile: "admin" }) });
    return onChange;
  };

  it("edits a menu's options and shows the schema's errors under the fields", async () => {
    const user = userEvent.setup();
    const onChange = renderInspector({ id: "m", type: "menu", position: { x: 0, y: 0 }, data: { text: "Escolha", options: [{ id: "1", label: "Vendas" }] } });
    await user.click(screen.getByTestId("add-option"));
    fireEvent.change(screen.getByTestId("field-options.1.label"), { target: { value: "Suporte" } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ options: [{ id: "1", label: "Vendas" }, { id: "2", label: "Suporte" }] }));
    fireEvent.change(screen.getByTestId("field-text"), { target: { value: "" } });
    await waitFor(() => expect(screen.getByTestId("field-text")).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getByText("Obrigatório")).toBeInTheDocument();
  });

  it("keeps a question's saveAs to the variables the schema allows", async () => {
    const onChange = renderInspector({ id: "ask", type: "question", position: { x: 0, y: 0 }, data: { text: "Seu e-mail?", saveAs: "vars.answer", validate: "email" } });
    const saveAs = screen.getByTestId("field-saveAs");
    fireEvent.change(saveAs, { target: { value: "email" } });
    expect(await screen.findByText("Valor inválido")).toBeInTheDocument();
    fireEvent.change(saveAs, { target: { value: "contact.email" } });
    await waitFor(() => expect(screen.queryByText("Valor inválido")).toBeNull());
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ saveAs: "contact.email", validate: "email" }));
  });

  it("picks the transfer's queue from the queues API", async () => {
    mockFetch({ ...pickers, "GET /api/users/list": [] });
    const onChange = vi.fn();
    renderWithApp(<NodeInspector node={{ id: "t", type: "transfer", position: { x: 0, y: 0 }, data: { queueId: null, userId: null } }} onChange={onChange} onDelete={() => {}} />, { user: aUser({ profile: "admin" }) });
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("node-inspector")).getAllByRole("combobox")[0]!);
    await user.click(await screen.findByRole("option", { name: "Vendas" }));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ queueId: 1 }));
  });
});

describe("the media node", { timeout: 20_000 }, () => {
  it("picks its file list by name from the file lists API", async () => {
    mockFetch({ ...pickers, "GET /api/users/list": [], "GET /api/files": { files: [{ id: 3, name: "Catálogo de verão", message: "", options: [] }], hasMore: false } });
    const onChange = vi.fn();
    renderWithApp(<NodeInspector node={{ id: "md", type: "media", position: { x: 0, y: 0 }, data: { caption: "" } }} onChange={onChange} onDelete={() => {}} />, { user: aUser({ profile: "admin" }) });
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("node-inspector")).getByRole("combobox", { name: "Lista de arquivos" }));
    await user.click(await screen.findByRole("option", { name: "Catálogo de verão" }));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ fileListId: 3 }));
  });

  it("uploads its own file (Enviar arquivo): the node gets the file, validates with no file list, and the file can be removed", async () => {
    const stored = { key: "1/flow-abc/tabela.pdf", name: "tabela.pdf", mimetype: "application/pdf" };
    const { calls } = mockFetch({ ...pickers, "GET /api/users/list": [], "GET /api/files": { files: [], hasMore: false }, "POST /api/flows/media": reply(201, stored) });
    const onChange = vi.fn();
    renderWithApp(<NodeInspector node={{ id: "md", type: "media", position: { x: 0, y: 0 }, data: { caption: "Segue" } }} onChange={onChange} onDelete={() => {}} />, { user: aUser({ profile: "admin" }) });
    // neither a file list nor a file: the node is not valid yet
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enviar arquivo" })).toBeInTheDocument();
    await userEvent.upload(screen.getByTestId("media-upload-file"), new File(["%PDF-1.4"], "tabela.pdf", { type: "application/pdf" }));
    expect(await screen.findByTestId("media-upload-attachment")).toHaveTextContent("tabela.pdf");
    const sent = calls.find((c) => c.method === "POST" && c.url.endsWith("/api/flows/media"))!;
    // the picked file goes as the form's `file` (jsdom's Request drops its name on the way)
    expect(await ((await sent.formData()).get("file") as Blob).text()).toBe("%PDF-1.4");
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ file: stored, caption: "Segue" })));
    const data = onChange.mock.lastCall![0] as Record<string, unknown>;
    expect(data.fileListId ?? undefined).toBeUndefined();
    expect(FLOW_NODE_DATA.media.safeParse(data).success).toBe(true);
    await waitFor(() => expect(screen.queryByText("Obrigatório")).toBeNull());
    // removed: no file, invalid again
    await userEvent.click(screen.getByRole("button", { name: "Remover arquivo" }));
    expect(screen.queryByTestId("media-upload-attachment")).toBeNull();
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ file: undefined })));
    expect(FLOW_NODE_DATA.media.safeParse(onChange.mock.lastCall![0]).success).toBe(false);
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
  });
});

describe("the flow's own settings", { timeout: 20_000 }, () => {
  it("edits the keywords that start the flow and its exit words, and saves them", async () => {
    const { calls } = openEditor({ "PUT /api/flows/7": async (req: Request) => reply(200, { ...aFlow(), ...(await req.json()) }) });
    const keywords = await screen.findByTestId("flow-keywords");
    const exits = screen.getByTestId("flow-exit-words");
    expect(exits).toHaveValue("sair");
    fireEvent.change(keywords, { target: { value: "pedido, Compra " } });
    fireEvent.change(exits, { target: { value: "sair, humano" } });
    await userEvent.click(screen.getByTestId("flow-save"));
    await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
    expect(await calls.find((c) => c.method === "PUT")!.json()).toMatchObject({
      triggers: [
        { type: "keyword", value: "pedido" },
        { type: "keyword", value: "Compra" },
      ],
      exitWords: ["sair", "humano"],
    });
  });
});

describe("counts and small screens", { timeout: 20_000 }, () => {
  it("draws each node's entered/exited/dropped counts on the canvas when asked", async () => {
    const user = userEvent.setup();
    openEditor({ "GET /api/flows/7/stats": { flowId: 7, nodes: { menu: { entered: 12, exited: 9, dropped: 3 } }, versions: {}, started: 12, finished: 9, dropped: 3 } });
    await screen.findByTestId("flow-toolbar");
    expect(screen.queryByTestId("flow-node-stats-menu")).toBeNull();
    await user.click(screen.getByTestId("flow-stats"));
    const counts = await screen.findByTestId("flow-node-stats-menu");
    expect(within(counts).getAllByText(/^\d+$/).map((e) => e.textContent)).toEqual(["12", "9", "3"]);
  });

  it("is readable but not editable on a phone: no palette, no inspector, the name locked", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("max-width"), media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }));
    openEditor();
    expect(await screen.findByTestId("flow-read-only")).toBeInTheDocument();
    expect(screen.getByTestId("flow-name")).toBeDisabled();
    expect(screen.queryByTestId("tab-inspector")).toBeNull();
    expect(screen.getByTestId("flow-save")).toBeDisabled();
    // the graph is still drawn
    expect(await screen.findByText("Escolha")).toBeInTheDocument();
  });
});
