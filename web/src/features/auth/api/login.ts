import { type QueryClient, useMutation } from "@tanstack/react-query";
import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import type { LoginResponse, MfaChallengeResponse } from "@atende/shared/contracts/http/mfa";
import type { LoginInput } from "@atende/shared/domain/auth/auth";
import { api } from "../../../lib/api-client";
import { saveSession } from "../../../lib/session-storage";
import { meQueryOptions } from "../../../lib/session/me";

/**
 * POST /auth/login: the session, or the two-factor step (`mfaRequired`). The login page shows its own errors
 * (expired company needs the due date).
 */
export const postLogin = (input: LoginInput): Promise<LoginResponse> => api.post<LoginResponse>("/auth/login", input, { auth: false });

/**
 * Makes the answer of login (or sign-up) the current session. Call it after navigating to the target page
 * in the same callback: the public-route guard would otherwise move the user to / first.
 */
export const startSession = (queryClient: QueryClient, { token, user }: AuthResponse) => {
  queryClient.clear();
  queryClient.setQueryData(meQueryOptions().queryKey, user);
  saveSession(token, user);
};

/** The login answer asks for the second step (kept here, not in the zod contracts module: the login page loads no zod). */
export const isMfaChallenge = (r: LoginResponse): r is MfaChallengeResponse => "mfaRequired" in r && r.mfaRequired === true;

export const useLogin = () => useMutation({ mutationFn: postLogin, meta: { silentError: true } });
