/**
 * A website visitor as a WhatsApp-shaped party (docs/adr/0092): the visitor id is carried as a LID-kind identity
 * (`<visitorId>@lid`), so the inbox's contact upsert, tickets and sends work unchanged. The id is random
 * ("wc" + 24 hex), never a number, so it can never meet a real WhatsApp LID or phone number.
 */
export const visitorJid = (visitorId: string) => `${visitorId}@lid`;
export const isVisitorId = (id: string) => /^wc[0-9a-f]{24}$/.test(id);
