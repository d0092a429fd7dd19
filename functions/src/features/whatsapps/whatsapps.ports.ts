import type { WhatsappsRepository } from "./whatsapps.repository";

/** Narrow ports the connections feature publishes (its repository implements them; docs/adr/0024-feature-modules.md). */
export type WhatsappLookup = Pick<WhatsappsRepository, "findById">;
export type WhatsappsOfCompany = Pick<WhatsappsRepository, "listByCompany">;
export type WhatsappByToken = Pick<WhatsappsRepository, "findByToken">;
export type WhatsappCreation = Pick<WhatsappsRepository, "create">;
