/**
 * Automatic messages on a Cloud API connection (issue 12, docs/adr/0031-cloud-api-templates-and-window.md): the
 * rating request, the inactivity message and the transfer notice are free text; once the customer's 24-hour window
 * has closed, the template chosen in the connection's settings is sent instead, or the message is skipped and an
 * internal note on the ticket says why.
 */
export const AUTOMATIC_KINDS = ["rating", "inactivity", "transfer"] as const;
export type AutomaticKind = (typeof AUTOMATIC_KINDS)[number];

/** What an automatic template's variables can be filled from. */
export type AutomaticValues = { name: string; number: string; ticketId: number; queue?: string; user?: string; /** issue 13: the cycle's protocol number */ protocol?: string | null };

/**
 * The values of an automatic template's variables, by convention (documented in docs/cloud-api.md):
 * positional {{1}} = the contact's name, {{2}} = the ticket number; named {{name}}/{{nome}}, {{number}}/{{numero}},
 * {{ticket}}/{{protocolo}}/{{protocol}}, {{queue}}/{{fila}}, {{user}}/{{atendente}}. Anything else stays empty
 * (the template then cannot be sent and the message is skipped).
 */
export const automaticTemplateValues = (vars: { header: string[]; body: string[] }, v: AutomaticValues) => {
  const named: Record<string, string> = {
    "1": v.name,
    "2": String(v.ticketId),
    name: v.name,
    nome: v.name,
    number: v.number,
    numero: v.number,
    ticket: String(v.ticketId),
    protocolo: v.protocol || String(v.ticketId),
    protocol: v.protocol || String(v.ticketId),
    queue: v.queue ?? "",
    fila: v.queue ?? "",
    user: v.user ?? "",
    atendente: v.user ?? "",
  };
  const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, named[n] ?? ""]));
  return { header: pick(vars.header), body: pick(vars.body) };
};

export type AutomaticSkipReason = "no_template" | "template_not_found" | "template_not_approved" | "template_values_missing";

const KIND_PT: Record<AutomaticKind, string> = { rating: "pedido de avaliação", inactivity: "mensagem de inatividade", transfer: "aviso de transferência" };
const REASON_PT: Record<AutomaticSkipReason, string> = {
  no_template: "nenhum modelo escolhido para ela nas configurações da conexão",
  template_not_found: "o modelo escolhido nas configurações da conexão não foi encontrado (sincronize os modelos)",
  template_not_approved: "o modelo escolhido nas configurações da conexão não está aprovado pela Meta",
  template_values_missing: "o modelo escolhido tem variáveis que não podem ser preenchidas automaticamente",
};

/**
 * The internal note left on the ticket when an automatic message was skipped. Written in Portuguese, the language
 * of the automatic messages themselves (RATING_REQUEST, the transfer notice): it is ticket content, not interface.
 */
export const automaticSkippedNote = (kind: AutomaticKind, reason: AutomaticSkipReason) =>
  `Mensagem automática não enviada (${KIND_PT[kind]}): a janela de 24 horas do cliente na API oficial do WhatsApp está fechada e ${REASON_PT[reason]}.`;
