import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ForgetPasswordPage } from "../../forget-password/components/forget-password-page";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { renderWithApp } from "../../../testing/render";
import { SignupPage } from "./signup-page";

const publicSettings = { allowregister: "enabled", viewregister: "enabled", trial: "3", logos: {} };

describe("sign-up", { timeout: 30_000 }, () => {
  it("masks the phone, lists the plans and goes to /login on success", async () => {
    const { calls } = mockFetch({
      "GET /api/plans/list": [{ id: 4, name: "Básico", users: 3, connections: 1, queues: 2, value: 79.9 }],
      "GET /api/public/settings": publicSettings,
      "POST /api/companies/cadastro": () => reply(201, { id: 9 }),
    });
    renderWithApp(<SignupPage />, { route: "/signup" });
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "Padaria");
    await userEvent.type(screen.getByLabelText("E-mail"), "dono@padaria.com");
    await userEvent.type(screen.getByLabelText("Telefone"), "11988887777");
    expect(screen.getByLabelText("Telefone")).toHaveValue("(11) 98888-7777");
    await userEvent.type(screen.getByLabelText("Senha"), "segredo1");
    await userEvent.click(screen.getByLabelText("Plano"));
    await userEvent.click(await screen.findByRole("option", { name: /Básico/ }));
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    await screen.findByTestId("elsewhere");
    const post = calls.find((c) => c.method === "POST")!;
    expect(await post.json()).toEqual({ name: "Padaria", email: "dono@padaria.com", phone: "11988887777", password: "segredo1", planId: 4 });
  });

  it("shows the failure message and stays", async () => {
    mockFetch({ "GET /api/plans/list": [{ id: 4, name: "Básico", users: 3, connections: 1, queues: 2, value: 79.9 }], "GET /api/public/settings": publicSettings, "POST /api/companies/cadastro": () => reply(409, { error: "ERR_EMAIL_ALREADY_EXISTS" }) });
    renderWithApp(<SignupPage />, { route: "/signup" });
    await userEvent.type(screen.getByLabelText("Nome da empresa"), "Padaria");
    await userEvent.type(screen.getByLabelText("E-mail"), "dono@padaria.com");
    await userEvent.type(screen.getByLabelText("Telefone"), "11988887777");
    await userEvent.type(screen.getByLabelText("Senha"), "segredo1");
    await userEvent.click(screen.getByLabelText("Plano"));
    await userEvent.click(await screen.findByRole("option", { name: /Básico/ }));
    await userEvent.click(screen.getByRole("button", { name: "Cadastrar" }));
    expect(await screen.findByText("Erro ao criar usuário. Verifique os dados informados.")).toBeInTheDocument();
  });
});

describe("password reset page", { timeout: 30_000 }, () => {
  it("moves to step 2 even for an unknown email, and skips the call when the passwords differ", async () => {
    const { calls } = mockFetch({ "POST /api/forgetpassword/x%40y.com": { status: 404 } });
    renderWithApp(<ForgetPasswordPage />, { route: "/forgetpsw" });
    await userEvent.type(screen.getByLabelText("E-mail"), "x@y.com");
    await userEvent.click(screen.getByRole("button", { name: "Enviar Email" }));
    expect(await screen.findByText("Email não encontrado")).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText("Código de verificação"), "123456");
    await userEvent.type(screen.getByLabelText("Nova senha"), "Senha1234");
    await userEvent.type(screen.getByLabelText("Confirme a senha"), "Senha9999");
    await userEvent.click(screen.getByRole("button", { name: "Redefinir Senha" }));
    expect(await screen.findByText("As senhas não correspondem")).toBeInTheDocument();
    await waitFor(() => expect(calls).toHaveLength(1));
  });
});
