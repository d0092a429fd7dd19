import type { PersonData, RawItem } from "./personal-data.repository";

/** A person with one closed ticket, two messages (one with a photo), a note, a list item and a shipping. */
export const personFixture = (): PersonData => {
  const item = (pk: string, sk: string, fields: Record<string, unknown>): RawItem => ({ pk, sk, ...fields });
  return {
    companyId: 7,
    contactId: 3,
    contact: item("CO#7", "CONTACT#0000000003", { id: 3, name: "Joana Prado", number: "5511988887777", email: "joana@x.br", isGroup: false, lid: "L123", gsi1pk: "CO#7#CNAME", gsi1sk: "joana prado#0000000003", entity: "contact" }),
    identities: [item("CO#7#CID#N#5511988887777", "CID", { contactId: 3 })],
    ticketPointers: [item("CO#7#CT#3", "0000000010", { ticketId: 10 })],
    tickets: [item("CO#7", "TICKET#0000000010", { id: 10, contactId: 3, status: "closed", lastMessage: "obrigada Joana", chatJid: "5511988887777@s.whatsapp.net", createdAt: "2026-01-01T10:00:00.000Z", version: 4 })],
    cycles: [item("CO#7", "CYCLE#0000000010", { ticketId: 10, queuedAt: "2026-01-01T10:00:00.000Z", rating: 3, ratedAt: "2026-01-01T11:00:00.000Z" })],
    ratingWaits: [],
    notes: [item("CO#7", "TNOTE#0000000001", { id: 1, ticketId: 10, note: "cliente Joana pediu retorno", createdAt: "2026-01-01T10:30:00.000Z" })],
    messages: [
      item("CO#7#MSG#A1", "MSG", { id: "A1", ticketId: 10, body: "Oi, sou a Joana", fromMe: false, mediaType: "chat", createdAt: "2026-01-01T10:00:00.000Z" }),
      item("CO#7#MSG#B2", "MSG", { id: "B2", ticketId: 10, body: "=cmd", fromMe: true, mediaType: "image", mediaKey: "7/B2/foto.jpg", createdAt: "2026-01-01T10:05:00.000Z" }),
    ],
    campaignLinks: [item("CO#7#CMPMSG#B2", "L", { campaignId: 2, itemId: 5 })],
    listItems: [item("CO#7#CLIST#4", "N#5511988887777", { id: 5, contactListId: 4, name: "Joana Prado", number: "5511988887777", email: "joana@x.br" })],
    listItemPointers: [item("CO#7", "CLITEM#0000000005", { contactListId: 4, number: "5511988887777" })],
    listCounters: [{ pk: "CO#7", sk: "CONTACTLIST#0000000004" }],
    contactCounter: { pk: "CO#7", sk: "COUNT#contacts" },
    shippings: [item("CO#7#CMP#0000000002#SHP", "S#0000000005", { campaignId: 2, itemId: 5, number: "5511988887777", name: "Joana Prado", email: "joana@x.br", state: "delivered", gsi1pk: "CO#7#CMPCONF#1#5511988887777" })],
    numberChecks: [item("CO#7", "NUMCHECK#r1", { number: "5511988887777", exists: true })],
    schedules: [],
    pageCursors: [item("CO#7#PAGES#1", "abc#2", { cursor: "x" })],
    optOut: item("CO#7#OPTOUT", "N#5511988887777", { number: "5511988887777", optedOutAt: "2026-01-02T00:00:00.000Z", message: "SAIR", source: "campaign", campaignId: 2 }),
    optOutWindow: null,
  };
};
