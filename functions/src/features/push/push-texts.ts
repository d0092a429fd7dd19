import type { PushSubscriptionRecord } from "./push.repository";

type Lang = PushSubscriptionRecord["lang"];
type Texts = {
  waitingTitle: string;
  waitingBody: (name: string) => string;
  messageTitle: string;
  messageFrom: (name: string) => string;
  transferTitle: string;
  transferBody: (name: string) => string;
  chatTitle: (from: string) => string;
  chatFrom: (from: string) => string;
  announcementTitle: string;
  whisperTitle: (from: string) => string;
  whisperBody: string;
  unknownContact: string;
};

/** The notifications' texts, in the device's language (pt by default). Customer content only where the caller puts it. */
export const PUSH_TEXTS: Record<Lang, Texts> = {
  pt: {
    waitingTitle: "Cliente aguardando",
    waitingBody: (name) => `${name} está aguardando atendimento`,
    messageTitle: "Nova mensagem",
    messageFrom: (name) => `Nova mensagem de ${name}`,
    transferTitle: "Atendimento transferido para você",
    transferBody: (name) => `Conversa com ${name}`,
    chatTitle: (from) => `Chat interno: ${from}`,
    chatFrom: (from) => `Nova mensagem de ${from}`,
    announcementTitle: "Novo informativo",
    whisperTitle: (from) => `Orientação de ${from}`,
    whisperBody: "Nova orientação na conversa",
    unknownContact: "um cliente",
  },
  en: {
    waitingTitle: "Customer waiting",
    waitingBody: (name) => `${name} is waiting for an attendant`,
    messageTitle: "New message",
    messageFrom: (name) => `New message from ${name}`,
    transferTitle: "A ticket was transferred to you",
    transferBody: (name) => `Conversation with ${name}`,
    chatTitle: (from) => `Internal chat: ${from}`,
    chatFrom: (from) => `New message from ${from}`,
    announcementTitle: "New announcement",
    whisperTitle: (from) => `Whisper from ${from}`,
    whisperBody: "New whisper in the conversation",
    unknownContact: "a customer",
  },
  es: {
    waitingTitle: "Cliente esperando",
    waitingBody: (name) => `${name} está esperando atención`,
    messageTitle: "Nuevo mensaje",
    messageFrom: (name) => `Nuevo mensaje de ${name}`,
    transferTitle: "Atención transferida a usted",
    transferBody: (name) => `Conversación con ${name}`,
    chatTitle: (from) => `Chat interno: ${from}`,
    chatFrom: (from) => `Nuevo mensaje de ${from}`,
    announcementTitle: "Nuevo anuncio",
    whisperTitle: (from) => `Orientación de ${from}`,
    whisperBody: "Nueva orientación en la conversación",
    unknownContact: "un cliente",
  },
};
