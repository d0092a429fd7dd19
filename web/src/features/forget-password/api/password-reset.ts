import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** POST /forgetpassword/{email}: answers { status: 200 | 404 } (404 = email not found). */
export const useRequestResetCode = () =>
  useMutation({
    mutationFn: (email: string) => api.post<{ status: number }>(`/forgetpassword/${encodeURIComponent(email)}`, undefined, { auth: false }),
    meta: { silentError: true },
  });

/** POST /resetpasswords/{email}/{token}/{newPassword} (the spec's shape). */
export const useResetPassword = () =>
  useMutation({
    mutationFn: (v: { email: string; token: string; newPassword: string }) =>
      api.post(`/resetpasswords/${encodeURIComponent(v.email)}/${encodeURIComponent(v.token)}/${encodeURIComponent(v.newPassword)}`, undefined, { auth: false }),
    meta: { silentError: true },
  });
