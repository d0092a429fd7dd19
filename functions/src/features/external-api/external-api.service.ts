import { createHash } from "node:crypto";
import { isCompanyExpired } from "@atende/shared/domain/auth/auth";
import { EXTERNAL_API_MESSAGES_PER_MINUTE, type ExternalMessageInput } from "@atende/shared/domain/external-api/external-message";
import { AppError } from "../../platform/errors";
import type { UploadedFile } from "../../platform/http/uploaded-file";
import type { CompanyLookup } from "../companies/companies.ports";
import type { CompaniesService } from "../companies/companies.service";
import type { InboxService } from "../inbox/inbox.service";
import type { Whatsapp } from "@atende/shared/domain/whatsapps/whatsapp";
import type { WhatsappByToken } from "../whatsapps/whatsapps.ports";
import type { TemplateSend } from "@atende/shared/domain/cloud-api/message-templates";
import type { AttemptLimiter } from "../../platform/limits/attempt-limiter";
import { createKeyedTurns, TurnTimeout } from "../../platform/keyed-turns";

/**
 * How long a send waits behind this instance's other sends to the same number (docs/adr/0067): they would all write
 * the same ticket, so they take turns instead of colliding on its version; a send still waiting after this is 409
 * ERR_TICKET_BUSY (nothing stored, nothing sent). A token sends at most EXTERNAL_API_MESSAGES_PER_MINUTE a minute.
 */
const SAME_NUMBER_WAIT_MS = 25_000;

/**
 * The external messages API (SERVER-RULES "Campaigns, schedules, external API"): a connection's token sends a
 * message to a number through that connection, into the contact's ticket history like any outbound message.
 */
export const createExternalApiService = (deps: {
  whatsapps: WhatsappByToken;
  companies: CompanyLookup;
  companiesService: CompaniesService;
  contacts: Pick<InboxService, "upsertFromWhatsapp">;
  messages: Pick<InboxService, "sendToContact">;
  /** messages per connection per minute: taken atomically before anything is stored (docs/adr/0064) */
  limiter: AttemptLimiter;
  /** LGPD (docs/adr/0030): a number on the company's opt-out list gets no API message (ERR_NUMBER_OPTED_OUT) */
  isOptedOut?: (companyId: number, number: string) => Promise<boolean>;
  /**
   * Cloud API (docs/adr/0042): a template is checked on the token's connection before anything is stored or counted
   * (QR connection: ERR_CHANNEL_UNSUPPORTED; not synced, not approved, a variable without a value: their codes).
   */
  templates?: { prepareTemplate(companyId: number, whatsappId: number, template: TemplateSend): Promise<unknown> };
  clock: () => Date;
}) => {
  const { whatsapps, companies, companiesService, contacts, messages, limiter, clock } = deps;
  const sameNumber = createKeyedTurns({ maxWaitMs: SAME_NUMBER_WAIT_MS });

  return {
    /** The connection of a token; the company must be active and its plan must include the external API. */
    async authenticate(token: string): Promise<Whatsapp> {
      const whatsapp = token ? await whatsapps.findByToken(token) : null;
      if (!whatsapp) throw new AppError("ERR_INVALID_CREDENTIALS");
      const company = await companies.findById(whatsapp.companyId);
      if (!company || !company.status || isCompanyExpired(company.dueDate, clock())) throw new AppError("ERR_COMPANY_EXPIRED", { dueDate: company?.dueDate ?? null });
      await companiesService.assertPlanAllows(whatsapp.companyId, "useExternalApi");
      return whatsapp;
    },

    /**
     * Sends text, or each file with the text as the first one's caption. With an idempotency key a retried
     * request stores and sends nothing new.
     */
    async send(whatsapp: Whatsapp, input: ExternalMessageInput, files: UploadedFile[], idempotencyKey?: string): Promise<{ mensagem: string }> {
      if (!files.length && !input.body.trim() && !input.template) throw new AppError("ERR_VALIDATION", { field: "body" });
      if (whatsapp.status !== "CONNECTED") throw new AppError("ERR_WAPP_NOT_INITIALIZED");
      if (deps.isOptedOut && (await deps.isOptedOut(whatsapp.companyId, input.number))) throw new AppError("ERR_NUMBER_OPTED_OUT");
      if (input.template) {
        // a template message carries no file of ours; the template is checked before the contact is created
        if (files.length) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "medias" });
        if (deps.templates) await deps.templates.prepareTemplate(whatsapp.companyId, whatsapp.id, input.template);
      }
      const count = Math.max(files.length, 1);
      const slots = await limiter.take(`api:${whatsapp.companyId}#${whatsapp.id}`, { limit: EXTERNAL_API_MESSAGES_PER_MINUTE, windowSeconds: 60 }, count);
      const idOf = idempotencyKey
        ? (i: number) => `API${createHash("sha256").update(`${whatsapp.companyId}:${whatsapp.id}:${idempotencyKey}:${i}`).digest("hex").slice(0, 28).toUpperCase()}`
        : undefined;
      try {
        // sends to one number through one connection go one after the other here (their ticket is the same: docs/adr/0067)
        await sameNumber.run(`${whatsapp.companyId}:${whatsapp.id}:${input.number}`, async () => {
          const contact = await contacts.upsertFromWhatsapp(whatsapp.companyId, whatsapp.id, { jid: `${input.number}@s.whatsapp.net`, number: input.number });
          await messages.sendToContact({ companyId: whatsapp.companyId, contactId: contact.id, whatsappId: whatsapp.id, body: input.body, userId: null, files, idOf, template: input.template });
        });
      } catch (e) {
        // a failed send does not count against the minute
        await slots.release();
        if (e instanceof TurnTimeout) throw new AppError("ERR_TICKET_BUSY");
        throw e;
      }
      return { mensagem: "Mensagem enviada" };
    },
  };
};
export type ExternalApiService = ReturnType<typeof createExternalApiService>;
