import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse } from "@atende/shared/contracts/http/auth";
import type { LoginInput } from "@atende/shared/domain/auth/auth";
import { api } from "../../../lib/api-client";
import { saveSession } from "../../../lib/session-storage";
import { meQueryOptions } from "./me";

/** POST /auth/login. The login page shows its own errors (expired company needs the due date). */
export const postLogin = (input: LoginInput): Promise<AuthResponse> => api.post<AuthResponse>("/auth/login", input, { auth: false });

export const useLogin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postLogin,
    meta: { silentError: true },
    onSuccess: ({ token, user }) => {
      queryClient.clear();
      queryClient.setQueryData(meQueryOptions().queryKey, user);
      saveSession(token, user);
    },
  });
};
