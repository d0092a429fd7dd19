import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import type { UserResponse } from "@atende/shared/contracts/http/users";
import { useSessionUser } from "../../../lib/session/session-context";
import { api } from "../../../lib/api-client";
import { userKeys } from "../../../lib/query-keys";
import { UserDialog } from "./user-dialog";

/**
 * The profile menu's own-user dialog: everyone edits their own name and password (admins everything); `children`
 * are more sections the app composes in (two-factor sign-in, from the auth feature).
 */
export function OwnProfileDialog({ onClose, children }: { onClose: () => void; children?: ReactNode }) {
  const me = useSessionUser();
  const user = useQuery({ queryKey: userKeys.me(me.id), queryFn: () => api.get<UserResponse>(`/users/${me.id}`) });
  if (!user.data) return null;
  return (
    <UserDialog user={user.data} onClose={onClose}>
      {children}
    </UserDialog>
  );
}
