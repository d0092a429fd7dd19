/** The widget's words in pt (default), en and es, chosen from the visitor's browser language. */
const TEXTS = {
  pt: { open: "Abrir o chat", close: "Fechar", title: "Fale conosco", placeholder: "Escreva sua mensagem…", send: "Enviar", attach: "Anexar arquivo", name: "Nome", email: "E-mail", phone: "Telefone", start: "Começar", you: "Você", error: "Não foi possível enviar. Tente de novo.", file: "Arquivo" },
  en: { open: "Open chat", close: "Close", title: "Chat with us", placeholder: "Type your message…", send: "Send", attach: "Attach a file", name: "Name", email: "E-mail", phone: "Phone", start: "Start", you: "You", error: "Could not send. Please try again.", file: "File" },
  es: { open: "Abrir el chat", close: "Cerrar", title: "Hable con nosotros", placeholder: "Escriba su mensaje…", send: "Enviar", attach: "Adjuntar archivo", name: "Nombre", email: "Correo", phone: "Teléfono", start: "Comenzar", you: "Usted", error: "No se pudo enviar. Inténtelo de nuevo.", file: "Archivo" },
} as const;
export type WidgetTexts = Record<keyof (typeof TEXTS)["pt"], string>;

export const textsFor = (languages: readonly string[]): WidgetTexts => {
  for (const l of languages) {
    const base = l.toLowerCase().split("-")[0];
    if (base === "pt" || base === "en" || base === "es") return TEXTS[base];
  }
  return TEXTS.pt;
};
