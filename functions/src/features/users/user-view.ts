import type { UserResponse } from "@atende/shared/contracts/http/users";
import type { UserRecord } from "./users.repository";

/** The company's queues and connections by id, read once to decorate many users. */
export type UserLookups = {
  queues: Map<number, { id: number; name: string; color: string }>;
  whatsapps: Map<number, { id: number; name: string }>;
};

/** A user as `GET /users/{id}` answers it (never the password hash): the HTTP API and every realtime event carry this. */
export const toUserResponse = (u: UserRecord, l: UserLookups): UserResponse => {
  const userQueues = (u.queueIds ?? []).flatMap((id) => {
    const q = l.queues.get(id);
    return q ? [{ id: q.id, name: q.name, color: q.color }] : [];
  });
  const w = u.whatsappId ? l.whatsapps.get(u.whatsappId) : undefined;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    profile: u.profile,
    super: u.super,
    online: u.online,
    companyId: u.companyId,
    whatsappId: w ? u.whatsappId : null,
    allTicket: u.allTicket,
    queueIds: userQueues.map((q) => q.id),
    queues: userQueues,
    whatsapp: w ? { id: w.id, name: w.name } : null,
    createdAt: u.createdAt,
  };
};

type CompanyList<T> = { listByCompany(companyId: number): Promise<T[]> };

/** Reads the lookups of a company (its queues and connections, two queries). */
export const userLookups = async (
  deps: { queues: CompanyList<{ id: number; name: string; color: string }>; whatsapps: CompanyList<{ id: number; name: string }> },
  companyId: number,
): Promise<UserLookups> => {
  const [qs, ws] = await Promise.all([deps.queues.listByCompany(companyId), deps.whatsapps.listByCompany(companyId)]);
  return { queues: new Map(qs.map((q) => [q.id, q])), whatsapps: new Map(ws.map((w) => [w.id, w])) };
};

/**
 * One user as `GET /users/{id}` answers it, for features that announce a user (presence, ADR 0068): built from
 * the users' records and the company's queues and connections, so the WebSocket Lambda needs no users service.
 */
export const createUserView =
  (deps: Parameters<typeof userLookups>[0] & { users: { findById(companyId: number, id: number): Promise<UserRecord | null> } }) =>
  async (companyId: number, userId: number): Promise<UserResponse | null> => {
    const [user, l] = await Promise.all([deps.users.findById(companyId, userId), userLookups(deps, companyId)]);
    return user ? toUserResponse(user, l) : null;
  };
export type UserView = ReturnType<typeof createUserView>;
