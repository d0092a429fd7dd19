import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { MessagesApiPage } from "./messages-api-page";

const connections = [
  { id: 1, name: "Suporte", token: "tok-suporte" },
  { id: 2, name: "Vendas", token: "tok-vendas" },
];

const pickConnection = async (form: HTMLElement, name: string) => {
  await userEvent.click(within(form).getByRole("combobox"));
  await userEvent.click(await screen.findByRole("option", { name }));
};

describe("messages API page", { timeout: 30_000 }, () => {
  it("documents the endpoint and sends a text with the chosen connection's token, not the session's", async () => {
    const { calls } = mockFetch({ "GET /api/whatsapp/": connections, "POST /api/messages/send": { mensagem: "Mensagem enviada" } });
    renderWithApp(<MessagesApiPage />, { route: "/messages-api", user: aUser({ profile: "admin" }), plan: aPlan() });
    expect(screen.getByText(/POST http:\/\/localhost(:\d+)?\/api\/messages\/send/)).toBeInTheDocument();
    const form = screen.getByTestId("text-form");
    await pickConnection(form, "Vendas");
    await userEvent.type(within(form).getByTestId("text-number"), "5511999990000");
    await userEvent.type(within(form).getByTestId("text-body"), "Olá!");
    await userEvent.click(within(form).getByRole("button", { name: "Enviar" }));
    await screen.findByText("Mensagem enviada com sucesso");
    const sent = calls.find((r) => r.method === "POST" && r.url.endsWith("/api/messages/send"))!;
    expect(sent.headers.get("authorization")).toBe("Bearer tok-vendas");
    expect(await sent.json()).toEqual({ number: "5511999990000", body: "Olá!" });
  });

  it("checks the number, the message and the connection before sending", async () => {
    const { calls } = mockFetch({ "GET /api/whatsapp/": connections });
    renderWithApp(<MessagesApiPage />, { route: "/messages-api", user: aUser({ profile: "admin" }), plan: aPlan() });
    const form = screen.getByTestId("text-form");
    await userEvent.type(within(form).getByTestId("text-number"), "(11) 9999-0000");
    await userEvent.click(within(form).getByRole("button", { name: "Enviar" }));
    expect(await within(form).findByText("Escolha a conexão")).toBeInTheDocument();
    expect(within(form).getByText("Número inválido: use só dígitos, com código do país e DDD")).toBeInTheDocument();
    expect(within(form).getByText("Informe a mensagem")).toBeInTheDocument();
    expect(calls.some((r) => r.method === "POST")).toBe(false);
  });

  it("sends media as multipart and shows the server's error when the token is refused", async () => {
    const { calls } = mockFetch({ "GET /api/whatsapp/": connections, "POST /api/messages/send": () => reply(403, { error: "ERR_NO_PERMISSION" }) });
    renderWithApp(<MessagesApiPage />, { route: "/messages-api", user: aUser({ profile: "admin" }), plan: aPlan() });
    const form = screen.getByTestId("media-form");
    await pickConnection(form, "Suporte");
    await userEvent.type(within(form).getByTestId("media-number"), "5511999990000");
    fireEvent.change(within(form).getByTestId("media-file"), { target: { files: [new File(["x"], "foto.png", { type: "image/png" })] } });
    await userEvent.click(within(form).getByRole("button", { name: "Enviar" }));
    await waitFor(() => expect(calls.some((r) => r.method === "POST")).toBe(true));
    const sent = calls.find((r) => r.method === "POST")!;
    const body = await sent.formData();
    expect(body.get("number")).toBe("5511999990000");
    expect(body.get("medias")).toMatchObject({ type: "image/png", size: 1 }); // (jsdom's Request drops the file name)
    expect(sent.headers.get("authorization")).toBe("Bearer tok-suporte");
    expect(await screen.findByText(/permissão/i)).toBeInTheDocument();
  });
});
