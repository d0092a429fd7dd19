/**
 * Permission rules of spec 1 section 6, and the supervisor profile (issue 34, docs/adr/0101). The profile `user` may
 * do none of these; `admin` may do all; `supervisor` watches and steers the work: every queue's tickets, the
 * dashboard, reports, the cockpit, silent monitoring and whispers, but no company configuration (settings, users,
 * connections, queues, plans, billing), which stays `admin` only (requireAdmin, ERR_NO_PERMISSION).
 */
export type Profile = "admin" | "user" | "supervisor";
export const PROFILES = ["admin", "supervisor", "user"] as const satisfies readonly Profile[];

export const PERMISSIONS = [
  "dashboard:view",
  "drawer-admin-items:view",
  "tickets-manager:showall",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "ticket-options:deleteTicket",
  "contacts-page:deleteContact",
  "connections-page:actionButtons",
  "connections-page:addConnection",
  "connections-page:editOrDeleteConnection",
  "kanban:switch",
  // issue 34: every ticket of every queue (lists, realtime, transfer/accept/close of any ticket)
  "tickets:seeAll",
  "reports:view",
  "supervisor:cockpit",
  "tickets:whisper",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RULES: Record<Profile, readonly Permission[]> = {
  user: [],
  supervisor: ["kanban:switch", "dashboard:view", "tickets-manager:showall", "tickets:seeAll", "reports:view", "supervisor:cockpit", "tickets:whisper"],
  admin: PERMISSIONS,
};

export const can = (profile: Profile | undefined | null, permission: Permission): boolean =>
  profile ? RULES[profile]?.includes(permission) ?? false : false;

export const isAdmin = (profile: Profile | undefined | null) => profile === "admin";

/** Sees every ticket of the company, whatever its queue or owner (admins and supervisors). */
export const seesEveryTicket = (profile: Profile | string | undefined | null): boolean => can(profile as Profile, "tickets:seeAll");

/**
 * Silent monitoring (issue 34): whoever sees every ticket and opens a conversation that is not theirs only watches —
 * no read mark, no unread reset, no status change, no typing. A supervisor only watches unless they own the ticket;
 * an admin watches another attendant's ticket (an admin who opens a waiting ticket still reads it, as before).
 */
export const watchesSilently = (viewer: { userId: number; profile: Profile | string }, ticket: { userId: number | null }): boolean => {
  if (!seesEveryTicket(viewer.profile) || ticket.userId === viewer.userId) return false;
  return viewer.profile === "supervisor" || ticket.userId !== null;
};
