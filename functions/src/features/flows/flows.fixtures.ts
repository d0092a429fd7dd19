import type { FlowInput } from "@atende/shared/domain/flows/flow";

/** Issue 30's example: greet → ask the e-mail → look the order up (`url` serves /orders?email=) → menu → a queue. */
export const orderFlow = (queueId: number, url: string): FlowInput => ({
  name: "Pedidos",
  description: "greet → e-mail → lookup → menu → queue",
  triggers: [{ type: "keyword", value: "Pedido" }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
    { id: "hi", type: "message", data: { text: "Olá {{contact.name}}!" } },
    { id: "email", type: "question", data: { text: "Qual o seu e-mail?", saveAs: "contact.email", validate: "email", invalidText: "E-mail inválido." } },
    { id: "look", type: "http", data: { url: `${url}/orders?email={{contact.email}}`, saveAs: { "vars.order": "$.orders[0].id" }, timeoutMs: 5000 } },
    { id: "menu", type: "menu", data: { text: "Pedido {{vars.order}}. Deseja:", options: [{ id: "human", label: "Falar com vendas" }, { id: "bye", label: "Encerrar" }] } },
    { id: "toQueue", type: "transfer", data: { queueId } },
    { id: "end", type: "end", data: { text: "Até logo!", closeTicket: true } },
    { id: "notFound", type: "message", data: { text: "Não achei seu pedido." } },
  ],
  edges: [
    { source: "start", target: "hi" },
    { source: "hi", target: "email" },
    { source: "email", target: "look" },
    { source: "look", target: "menu", sourceHandle: "success" },
    { source: "look", target: "notFound", sourceHandle: "error" },
    { source: "notFound", target: "toQueue" },
    { source: "menu", target: "toQueue", sourceHandle: "human" },
    { source: "menu", target: "end", sourceHandle: "bye" },
  ],
});
