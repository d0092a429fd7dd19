import bcrypt from "bcryptjs";

export const hashPassword = (password: string, rounds: number) => bcrypt.hash(password, rounds);
export const verifyPassword = (password: string, hash: string) => bcrypt.compare(password, hash);

/** Compared against when the email is unknown, so both paths cost one bcrypt. */
export const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.DxG7u8w0s7QQ8u3a7yz1Jm0nP7bK";
