import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { InvoiceResponse } from "@atende/shared/contracts/http/invoices";
import { getToasts } from "../../../lib/toast";
import { mockFetch } from "../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { emitRealtime } from "../../../testing/realtime";
import { InvoicesPage } from "./invoices-page";

const emit = emitRealtime;

const invoice = (over: Partial<InvoiceResponse>): InvoiceResponse => ({
  id: 1,
  detail: "Completo - 01/12/2099",
  value: 199.9,
  dueDate: "2099-12-01T00:00:00.000Z",
  status: "open",
  companyId: 2,
  paidAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const CODE = "00020101021226370014br.gov.bcb.pix0115chave@banco.br5204000053039865406199.905802BR5912ATENDE LOCAL6009SAO PAULO62070503***63041D3D";

describe("invoices page and checkout", { timeout: 30_000 }, () => {
  it("shows status per invoice: paid with an inert PAGO, overdue tinted, open with PAGAR", async () => {
    mockFetch({
      "GET /api/invoices/all": {
        list: [invoice({ id: 3 }), invoice({ id: 2, dueDate: "2020-01-01T00:00:00.000Z" }), invoice({ id: 1, status: "paid", paidAt: "2026-01-01T00:00:00.000Z" })],
        hasMore: false,
      },
    });
    renderWithApp(<InvoicesPage />, { route: "/financeiro", user: aUser(), plan: aPlan() });
    const rows = await screen.findAllByTestId("invoice-row");
    expect(within(rows[0]!).getByText("Em Aberto")).toBeInTheDocument();
    expect(within(rows[0]!).getByRole("button", { name: "PAGAR" })).toBeInTheDocument();
    expect(rows[1]).toHaveAttribute("data-status", "overdue");
    expect(within(rows[1]!).getByText("Vencido")).toBeInTheDocument();
    expect(within(rows[2]!).getByText("Pago")).toBeInTheDocument();
    expect(within(rows[2]!).queryByRole("button", { name: "PAGAR" })).toBeNull();
    expect(within(rows[2]!).getByTestId("invoice-paid")).toHaveTextContent("PAGO");
  });

  it("walks Personalizar -> Revisar -> PAGAR, shows the Pix code, then the renewal on CONCLUIDA", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      "GET /api/invoices/all": { list: [invoice({ id: 7, value: 199.9 })], hasMore: false },
      "POST /api/subscription": { invoiceId: 7, txid: "AT00000000020000000007abcdef12", valor: { original: "199.90" }, qrcode: { qrcode: CODE }, expiresAt: "2099-01-01T00:00:00.000Z" },
      "POST /api/auth/refresh_token": { token: "t2", user: aUser() },
    });
    renderWithApp(<InvoicesPage />, { route: "/financeiro", user: aUser(), plan: aPlan({ name: "Completo", users: 10, connections: 3 }) });
    await user.click(await screen.findByRole("button", { name: "PAGAR" }));
    // our app asks for the paged shape ({ list, hasMore }); without `paged` the server answers the spec's plain array
    expect(new URL(calls.find((c) => c.url.includes("/invoices/all"))!.url).searchParams.get("paged")).toBe("1");

    const dialog = await screen.findByRole("dialog", { name: "Falta pouco!" });
    // the wizard starts at step 1 (Personalizar) with the plan
    expect(within(dialog).getByTestId("checkout-plan")).toHaveTextContent("Usuários: 10");
    expect(within(dialog).getByTestId("checkout-plan")).toHaveTextContent("Conexões: 3");
    await user.click(within(dialog).getByRole("button", { name: "Próximo" }));
    expect(within(dialog).getByTestId("checkout-review")).toHaveTextContent("Fatura 7");
    expect(within(dialog).getByTestId("checkout-review")).toHaveTextContent(/199,90/);
    expect(calls.some((c) => c.method === "POST")).toBe(false);

    await user.click(within(dialog).getByRole("button", { name: "PAGAR" }));
    const pix = await within(dialog).findByTestId("checkout-pix");
    expect(within(pix).getByTestId("pix-code")).toHaveValue(CODE);
    expect(within(pix).getByRole("button", { name: "Copiar código" })).toBeInTheDocument();
    const post = calls.find((c) => c.method === "POST" && c.url.endsWith("/api/subscription"));
    expect(await post?.json()).toMatchObject({ invoiceId: 7, price: 199.9, users: 10, connections: 3 });
    expect(getToasts().map((t) => t.message)).toContain("Assinatura realizada com sucesso!, aguardando a realização do pagamento");

    // another invoice's payment is not this one
    emit("payment", { action: "CONCLUIDA", invoiceId: 99, company: { id: 2, dueDate: "2100-01-01T00:00:00.000Z" } });
    expect(within(dialog).queryByTestId("checkout-renewed")).toBeNull();
    emit("payment", { action: "CONCLUIDA", invoiceId: 7, company: { id: 2, dueDate: "2100-01-15T12:00:00.000Z" } });
    await waitFor(() => expect(within(dialog).getByTestId("checkout-renewed")).toHaveTextContent("15/01/2100"));
  });

  it("can go back to Dados and sends the billing data with the payment", async () => {
    const user = userEvent.setup();
    const { calls } = mockFetch({
      "GET /api/invoices/all": { list: [invoice({ id: 5 })], hasMore: false },
      "POST /api/subscription": { invoiceId: 5, txid: "x", valor: { original: "199.90" }, qrcode: { qrcode: CODE }, expiresAt: "2099-01-01T00:00:00.000Z" },
    });
    renderWithApp(<InvoicesPage />, { route: "/financeiro", user: aUser(), plan: aPlan() });
    await user.click(await screen.findByRole("button", { name: "PAGAR" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Voltar" }));
    await user.type(within(dialog).getByLabelText("Nome"), "Maria");
    await user.type(within(dialog).getByLabelText("Cidade"), "Recife");
    await user.click(within(dialog).getByRole("button", { name: "Próximo" }));
    await user.click(within(dialog).getByRole("button", { name: "Próximo" }));
    await user.click(within(dialog).getByRole("button", { name: "PAGAR" }));
    await within(dialog).findByTestId("checkout-pix");
    const post = calls.find((c) => c.method === "POST");
    expect(await post?.json()).toMatchObject({ invoiceId: 5, firstName: "Maria", city: "Recife" });
  });
});
