/**
 * Key builders shared by every repository. Every partition key of tenant data begins with
 * `CO#<companyId>` (docs/adr/0002-single-table.md). Only repositories call these.
 */
export const pad = (n: number, width = 10) => String(n).padStart(width, "0");
export const companyPk = (companyId: number) => `CO#${companyId}`;
export const PLATFORM_PK = "PLATFORM";
