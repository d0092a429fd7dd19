import type { Profile } from "../permissions/permissions";

/**
 * Who is calling, as services see them: identity, company, profile, queues and flags. Never the password hash, the
 * token version or refresh ids: those stay in the user record the auth service reads (docs/adr/0021-repositories-own-persistence.md).
 */
export type Principal = {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: "enabled" | "desabled";
  queueIds: number[];
  /** the user's default connection (null: the company's default) */
  whatsappId: number | null;
};

/**
 * A request's caller: the principal and the company every read and write is scoped to; `clientAddress` is the
 * address the request came from (platform/http/client-address.ts), set by requireAuth, for the audit trail.
 */
export type AuthContext = { user: Principal; companyId: number; clientAddress?: string };
