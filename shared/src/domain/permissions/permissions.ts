/**
 * Permission rules of spec 1 section 6. The profile `user` may do none of
 * these; `admin` (and `supervisor` where noted) may.
 */
export type Profile = "admin" | "user" | "supervisor";

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
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RULES: Record<Profile, readonly Permission[]> = {
  user: [],
  supervisor: ["kanban:switch"],
  admin: PERMISSIONS,
};

export const can = (profile: Profile | undefined | null, permission: Permission): boolean =>
  profile ? RULES[profile]?.includes(permission) ?? false : false;

export const isAdmin = (profile: Profile | undefined | null) => profile === "admin";
