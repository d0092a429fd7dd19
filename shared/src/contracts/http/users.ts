import type { Profile } from "../../domain/permissions/permissions";
import type { AgentEventData } from "./service-levels";

/** A user as the users page and pickers see it (never the password hash). */
export type UserResponse = {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  online: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: "enabled" | "desabled";
  queueIds: number[];
  queues: { id: number; name: string; color: string }[];
  whatsapp: { id: number; name: string } | null;
  createdAt: string;
};

/** GET /users/?searchParam&pageNumber */
export type UserListResponse = { users: UserResponse[]; count: number; hasMore: boolean };

/** Realtime `user` channel data. */
/** Realtime `user` channel data (`status`: an attendant's status changed, docs/adr/0032). */
export type UserEventData = { action: "create" | "update"; user: UserResponse } | { action: "delete"; userId: number } | AgentEventData;
