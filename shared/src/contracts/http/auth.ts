import type { Profile } from "../../domain/permissions/permissions";

export type SessionCompany = {
  id: number;
  name: string;
  dueDate: string | null;
  status: boolean;
  planId: number | null;
  timezone: string;
  settings: { key: string; value: string }[];
};

export type SessionUser = {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: "enabled" | "desabled";
  online: boolean;
  /** `UserQueue` is the reference's join row: spec clients (the kanban) read `queues[].UserQueue.queueId` */
  queues: { id: number; name: string; color: string; UserQueue: { queueId: number } }[];
  company: SessionCompany;
};

/** POST /auth/login and POST /auth/refresh_token answer. */
export type AuthResponse = { token: string; user: SessionUser };

/** GET /version */
export type VersionResponse = { version: string };

/** ERR_COMPANY_EXPIRED carries the due date so the client can say when it expired. */
export type CompanyExpiredData = { dueDate: string };
