import type { UsersRepository } from "./users.repository";

/**
 * What other features may do with users' records: narrow ports the users feature publishes (its repository
 * implements them; the composition root passes it). Other features import these, never users.repository.
 * The record type stays in functions: it carries the password hash and refresh ids, which never leave the server.
 */
export type { NewUser, UserRecord } from "./users.repository";
/** auth: login, sessions and refresh rotation */
export type UserSessions = Pick<UsersRepository, "findByEmail" | "findById" | "startSession" | "rotateRefresh" | "endSession">;
/** realtime: presence and the socket's user */
export type UserPresence = Pick<UsersRepository, "findById" | "setOnline">;
/** signup and seed: the first user of a company */
export type UserCreation = Pick<UsersRepository, "create" | "findByEmail">;
/** password reset */
export type UserPasswords = Pick<UsersRepository, "findByEmail" | "setPassword">;
