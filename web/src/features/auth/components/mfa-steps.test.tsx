import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { mockFetch, reply } from "../../../testing/fetch-mock";
import { aUser } from "../../../testing/fixtures";
import { renderWithApp } from "../../../testing/render";
import { MfaLoginStep } from "./mfa-login-step";
import { MfaSection } from "./mfa-section";
import { getToken } from "../../../lib/session-storage";

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBB${i}`.replace(/[01]/g, "2"));

describe("profile dialog: two-factor section", { timeout: 20_000 }, () => {
  it("turns it on: QR and secret, a first code, then the ten recovery codes shown once", async () => {
    let enabled = false;
    const { calls } = mockFetch({
      "GET /api/auth/mfa": () => ({ enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 }),
      "POST /api/auth/mfa/setup": { secret: SECRET, otpauthUrl: `otpauth://totp/Atende:a%40b.c?secret=${SECRET}&issuer=Atende` },
      "POST /api/auth/mfa/enable": async (req: Request) => {
        const body = (await req.json()) as { code: string };
        if (body.code !== "123456") return reply(400, { error: "ERR_MFA_INVALID_CODE" });
        enabled = true;
        return { recoveryCodes: CODES };
      },
    });
    renderWithApp(<MfaSection />, { user: aUser() });
    const user = userEvent.setup();
    expect(await screen.findByTestId("mfa-state")).toHaveTextContent("Desativada");
    await user.click(screen.getByTestId("mfa-start"));
    expect(await screen.findByTestId("mfa-secret")).toHaveTextContent("GEZD GNBV GY3T");
    await waitFor(() => expect(screen.getByTestId("mfa-qr")).toBeInTheDocument());
    await user.type(screen.getByTestId("mfa-code"), "000000");
    await user.click(screen.getByTestId("mfa-enable"));
    expect(await screen.findByText(/Código inválido/)).toBeInTheDocument();
    await user.clear(screen.getByTestId("mfa-code"));
    await user.type(screen.getByTestId("mfa-code"), "123456");
    await user.click(screen.getByTestId("mfa-enable"));
    expect(await screen.findAllByTestId("mfa-recovery-code")).toHaveLength(10);
    expect(screen.getByText(/não serão mostrados de novo/)).toBeInTheDocument();
    await user.click(screen.getByTestId("mfa-done"));
    expect(screen.queryByTestId("mfa-recovery-codes")).not.toBeInTheDocument();
    expect(await screen.findByTestId("mfa-state")).toHaveTextContent("Ativada");
    expect(calls.filter((c) => c.url.endsWith("/auth/mfa/enable"))).toHaveLength(2);
  });

  it("turning it off asks for a current code", async () => {
    let enabled = true;
    const { calls } = mockFetch({
      "GET /api/auth/mfa": () => ({ enabled, required: false, recoveryCodesLeft: 7 }),
      // every other session ends; the answer is this tab's new session (docs/adr/0064)
      "POST /api/auth/mfa/disable": () => {
        enabled = false;
        return { token: "renewed-token", user: aUser() };
      },
    });
    renderWithApp(<MfaSection />, { user: aUser() });
    const user = userEvent.setup();
    expect(await screen.findByText("7 códigos de recuperação restantes.")).toBeInTheDocument();
    await user.click(screen.getByTestId("mfa-disable-start"));
    expect(screen.getByTestId("mfa-disable")).toBeDisabled();
    await user.type(screen.getByTestId("mfa-code"), "654321");
    await user.click(screen.getByTestId("mfa-disable"));
    expect(await screen.findByTestId("mfa-state")).toHaveTextContent("Desativada");
    const sent = calls.find((c) => c.url.endsWith("/auth/mfa/disable"))!;
    expect(await sent.json()).toEqual({ code: "654321" });
    // the tab goes on with the new session's token
    expect(getToken()).toBe("renewed-token");
  });

  it("hides 'turn off' while the company requires it", async () => {
    mockFetch({ "GET /api/auth/mfa": { enabled: true, required: true, recoveryCodesLeft: 10 } });
    renderWithApp(<MfaSection />, { user: aUser() });
    expect(await screen.findByTestId("mfa-state")).toHaveTextContent("Ativada");
    expect(screen.queryByTestId("mfa-disable-start")).not.toBeInTheDocument();
  });
});

describe("login page: the code step", { timeout: 20_000 }, () => {
  it("sends the token and the code and hands the session over", async () => {
    const session = { token: "tok", user: aUser() };
    const { calls } = mockFetch({ "POST /api/auth/mfa/verify": session });
    const onSession = vi.fn();
    renderWithApp(<MfaLoginStep challenge={{ mfaRequired: true, mfaToken: "t".repeat(40), setupRequired: false }} onSession={onSession} onRestart={() => {}} />);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId("mfa-code"), "abcde-fghij");
    await user.click(screen.getByTestId("mfa-verify"));
    await waitFor(() => expect(onSession).toHaveBeenCalledWith(session));
    expect(await calls[0]!.json()).toEqual({ mfaToken: "t".repeat(40), code: "abcde-fghij" });
    expect(calls[0]!.headers.get("authorization")).toBeNull();
  });

  it("goes back to email and password when the step's token is no longer good", async () => {
    mockFetch({ "POST /api/auth/mfa/verify": reply(401, { error: "ERR_MFA_TOKEN_INVALID" }) });
    const onRestart = vi.fn();
    renderWithApp(<MfaLoginStep challenge={{ mfaRequired: true, mfaToken: "t".repeat(40), setupRequired: false }} onSession={() => {}} onRestart={onRestart} />);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId("mfa-code"), "123456");
    await user.click(screen.getByTestId("mfa-verify"));
    await waitFor(() => expect(onRestart).toHaveBeenCalled());
  });

  it("walks a user through setup when the company requires it, and completes the login", async () => {
    const session = { token: "tok", user: aUser() };
    const { calls } = mockFetch({
      "POST /api/auth/mfa/setup": { secret: SECRET, otpauthUrl: `otpauth://totp/x?secret=${SECRET}` },
      "POST /api/auth/mfa/enable": { recoveryCodes: CODES, ...session },
    });
    const onSession = vi.fn();
    renderWithApp(<MfaLoginStep challenge={{ mfaRequired: true, mfaToken: "s".repeat(40), setupRequired: true }} onSession={onSession} onRestart={() => {}} />);
    const user = userEvent.setup();
    expect(await screen.findByText(/Configure-a para continuar/)).toBeInTheDocument();
    await screen.findByTestId("mfa-secret");
    await user.type(screen.getByTestId("mfa-code"), "123456");
    await user.click(screen.getByTestId("mfa-enable"));
    expect(await screen.findAllByTestId("mfa-recovery-code")).toHaveLength(10);
    await user.click(screen.getByTestId("mfa-done"));
    expect(onSession).toHaveBeenCalledWith(session);
    expect(await calls[0]!.json()).toEqual({ mfaToken: "s".repeat(40) });
    expect(await calls[1]!.json()).toEqual({ code: "123456", mfaToken: "s".repeat(40) });
  });
});
