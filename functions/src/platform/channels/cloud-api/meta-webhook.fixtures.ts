import type { MetaMessage, MetaStatus, MetaWebhook } from "./webhook.mapper";

/**
 * Webhook bodies shaped as Meta documents them (developers.facebook.com → WhatsApp Business Platform → Webhooks →
 * messages webhook reference: text, image, audio, video, document, sticker, location, contacts, reaction, button,
 * interactive; status messages webhook reference: sent, delivered, read, failed). Ids and numbers are Meta's
 * example values where the reference gives them.
 */
export const WABA_ID = "102290129340398";
export const PHONE_NUMBER_ID = "106540352242922";
export const DISPLAY_NUMBER = "15550783881";
export const CUSTOMER = "16505551234";

export const envelope = (value: { messages?: MetaMessage[]; statuses?: MetaStatus[] }, phoneNumberId = PHONE_NUMBER_ID): MetaWebhook => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: WABA_ID,
      changes: [
        {
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: DISPLAY_NUMBER, phone_number_id: phoneNumberId },
            ...(value.messages ? { contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: CUSTOMER }] } : {}),
            ...value,
          },
          field: "messages",
        },
      ],
    },
  ],
});

const msg = (id: string, type: string, body: Omit<MetaMessage, "from" | "id" | "timestamp" | "type">): MetaMessage => ({ from: CUSTOMER, id, timestamp: "1749416383", type, ...body });

export const INBOUND: Record<string, MetaMessage> = {
  text: msg("wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=", "text", { text: { body: "Does it come in another color?" } }),
  image: msg("wamid.IMAGE01", "image", {
    image: { caption: "Best succulent ever?", mime_type: "image/jpeg", sha256: "5c3a9b6d0f...", id: "1003383421387256" } as MetaMessage["image"],
  }),
  audio: msg("wamid.AUDIO01", "audio", { audio: { mime_type: "audio/ogg; codecs=opus", sha256: "7e2d…", id: "1003383421387257", voice: true } as MetaMessage["audio"] }),
  video: msg("wamid.VIDEO01", "video", { video: { caption: "Look", mime_type: "video/mp4", sha256: "a1…", id: "1003383421387258" } as MetaMessage["video"] }),
  document: msg("wamid.DOC01", "document", {
    document: { caption: "Invoice", filename: "invoice.pdf", mime_type: "application/pdf", sha256: "b2…", id: "1003383421387259" } as MetaMessage["document"],
  }),
  sticker: msg("wamid.STICKER01", "sticker", { sticker: { mime_type: "image/webp", sha256: "c3…", id: "1003383421387260", animated: false } as MetaMessage["sticker"] }),
  location: msg("wamid.LOC01", "location", { location: { address: "1 Hacker Way, Menlo Park, CA 94025", latitude: 37.483307, longitude: -122.148981, name: "Main Campus" } }),
  contacts: msg("wamid.CONTACTS01", "contacts", {
    contacts: [
      {
        name: { first_name: "Barbara", last_name: "Johnson", formatted_name: "Barbara J. Johnson" },
        org: { company: "Lucky Shrub" },
        phones: [{ phone: "+1 (650) 555-1234", wa_id: "16505551234", type: "MOBILE" }],
        emails: [{ email: "bjohnson@luckyshrub.com", type: "WORK" }],
      },
    ],
  }),
  reaction: msg("wamid.REACT01", "reaction", { reaction: { message_id: "wamid.OURS01", emoji: "\u{1F44D}" } }),
  button: msg("wamid.BUTTON01", "button", { context: { from: DISPLAY_NUMBER, id: "wamid.TEMPLATE01" }, button: { payload: "Unsubscribe from Promos", text: "Unsubscribe from Promos" } }),
  button_reply: msg("wamid.INTERACTIVE01", "interactive", {
    context: { from: DISPLAY_NUMBER, id: "wamid.OURS02" },
    interactive: { type: "button_reply", button_reply: { id: "change-button", title: "Change" } },
  }),
  list_reply: msg("wamid.INTERACTIVE02", "interactive", {
    context: { from: DISPLAY_NUMBER, id: "wamid.OURS03" },
    interactive: { type: "list_reply", list_reply: { id: "priority_express", title: "Priority Mail Express", description: "Next Day to 2 Days" } },
  }),
  reply: msg("wamid.REPLY01", "text", { context: { from: DISPLAY_NUMBER, id: "wamid.OURS01" }, text: { body: "Yes, this one" } }),
  unsupported: msg("wamid.UNSUP01", "unsupported", {}),
};

const status = (status: string, extra: Partial<MetaStatus> = {}): MetaStatus => ({
  id: "wamid.OURS01",
  status,
  timestamp: "1750263773",
  recipient_id: CUSTOMER,
  ...extra,
});
export const STATUSES: Record<string, MetaStatus> = {
  sent: status("sent"),
  delivered: status("delivered"),
  read: status("read"),
  played: status("played"),
  failed131047: status("failed", {
    errors: [
      {
        code: 131047,
        title: "Re-engagement message",
        message: "Re-engagement message",
        error_data: { details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number." },
      },
    ],
  }),
  failed131026: status("failed", { errors: [{ code: 131026, title: "Message undeliverable", message: "Message undeliverable", error_data: { details: "Message Undeliverable." } }] }),
};
