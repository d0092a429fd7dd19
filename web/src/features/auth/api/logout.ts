import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { disconnectRealtime } from "../../../lib/realtime";
import { clearSession } from "../../../lib/session-storage";

/** DELETE /auth/logout, then the local session is dropped whatever the server said. */
export const deleteLogout = (): Promise<void> => api.delete("/auth/logout");

export const useLogout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLogout,
    meta: { silentError: true },
    onSettled: () => {
      disconnectRealtime();
      clearSession();
      queryClient.clear();
    },
  });
};
