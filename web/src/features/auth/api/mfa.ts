import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import type { MfaEnableResponse, MfaSetupResponse, MfaStatusResponse } from "@atende/shared/contracts/http/mfa";
import { api } from "../../../lib/api-client";
import { saveSession } from "../../../lib/session-storage";

/** Two-factor sign-in (docs/adr/0029): the signed-in user's state and the setup steps, and the login's second step. */

const mfaKeys = { status: () => ["mfa", "status"] as const };

export const mfaStatusOptions = () => queryOptions({ queryKey: mfaKeys.status(), queryFn: () => api.get<MfaStatusResponse>("/auth/mfa") });
export const useMfaStatus = () => useQuery(mfaStatusOptions());

/**
 * POST /auth/mfa/setup. Signed in: with the session. During a setup-required login: with the login's `mfaToken`
 * (a public call: no session yet).
 */
export const postMfaSetup = (mfaToken?: string) =>
  mfaToken ? api.post<MfaSetupResponse>("/auth/mfa/setup", { mfaToken }, { auth: false }) : api.post<MfaSetupResponse>("/auth/mfa/setup", {});

/** POST /auth/mfa/enable: the recovery codes; with an `mfaToken` also the session that completes the login. */
export const postMfaEnable = ({ code, mfaToken }: { code: string; mfaToken?: string }) =>
  mfaToken ? api.post<MfaEnableResponse>("/auth/mfa/enable", { code, mfaToken }, { auth: false }) : api.post<MfaEnableResponse>("/auth/mfa/enable", { code });

/** POST /auth/mfa/verify: the login's second step; answers the session like the login does. */
export const postMfaVerify = (input: { mfaToken: string; code: string }) => api.post<AuthResponse>("/auth/mfa/verify", input, { auth: false });

export const useMfaSetup = () => useMutation({ mutationFn: postMfaSetup });

/**
 * Turning two-factor on or off while signed in ends every other session of the user: the answer carries this
 * tab's new session (token and refresh cookie), kept here so the tab goes on (docs/adr/0064).
 */
const keepRenewed = (res: Partial<AuthResponse> | undefined) => {
  if (res?.token && res.user) saveSession(res.token, res.user);
};

export const useMfaEnable = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postMfaEnable,
    onSuccess: (res, input) => {
      if (!input.mfaToken) keepRenewed(res);
      return qc.invalidateQueries({ queryKey: mfaKeys.status() });
    },
  });
};

export const useMfaDisable = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<AuthResponse>("/auth/mfa/disable", { code }),
    onSuccess: (res) => {
      keepRenewed(res);
      return qc.invalidateQueries({ queryKey: mfaKeys.status() });
    },
  });
};

export const useMfaVerify = () => useMutation({ mutationFn: postMfaVerify, meta: { silentError: true } });
