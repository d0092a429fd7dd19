/**
 * The demo's Typebot (issue 11 item 8, docs/integrations.md): an integration on the local Typebot stand-in
 * (/simulator/typebot, flow `atende-demo`) bound to a third queue, *Autoatendimento*, on the Simulador connection.
 * In the WhatsApp simulator, write to the demo connection, answer the menu with 3 and write again: the flow greets
 * with a picture, asks the name and a subject, then hands the ticket to the queue's attendants with an internal note.
 */
type Api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;

export const DEMO_TYPEBOT_QUEUE = "Autoatendimento";

export const seedDemoTypebot = async (api: Api, url: string, whatsappId: number) => {
  const integration = await api<{ id: number }>("POST", "/queueIntegration", {
    type: "typebot",
    name: "Typebot demo",
    urlN8N: `${url}/simulator/typebot`,
    typebotSlug: "atende-demo",
    typebotExpires: 30,
    typebotDelayMessage: 800,
    typebotKeywordFinish: "sair",
    typebotKeywordRestart: "recomeçar",
    typebotUnknownMessage: "Não entendi 🤔 Responda com o número de uma das opções.",
    typebotRestartMessage: "Tudo bem, vamos recomeçar!",
  });
  const queue = await api<{ id: number }>("POST", "/queue", {
    name: DEMO_TYPEBOT_QUEUE,
    color: "#7c3aed",
    orderQueue: 3,
    greetingMessage: "Você está no autoatendimento da Demo Atendimento. Mande um oi para começar!",
    integrationId: integration.id,
  });
  // the connection form is always sent whole: what GET answers, with the new queue added
  const connection = await api<Record<string, unknown> & { queueIds: number[] }>("GET", `/whatsapp/${whatsappId}`);
  await api("PUT", `/whatsapp/${whatsappId}`, { ...connection, queueIds: [...connection.queueIds, queue.id] });
};

/**
 * The demo's drawn flow (issue 30, /flows): greet → ask the e-mail → menu → queue, published. It starts on the keyword
 * "fluxo" (the first message of a new conversation on the Simulador connection), not as the connection's flow, so the
 * queue menu that the other e2e tests and the conversations above rely on stays as it is.
 */
export const DEMO_FLOW_KEYWORD = "fluxo";
export const seedDemoFlow = async (api: Api) => {
  const queues = await api<{ id: number; name: string }[]>("GET", "/queue");
  const queueOf = (name: string) => queues.find((q) => q.name === name)?.id ?? queues[0]!.id;
  const flow = await api<{ id: number }>("POST", "/flows", {
    name: "Demo: e-mail e menu",
    description: "Cumprimenta, pede o e-mail e leva o cliente à fila escolhida.",
    triggers: [{ type: "keyword", value: DEMO_FLOW_KEYWORD }],
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
      { id: "greet", type: "message", position: { x: 0, y: 120 }, data: { text: "Olá, {{contact.name}}! Este é o fluxo de demonstração." } },
      { id: "email", type: "question", position: { x: 0, y: 240 }, data: { text: "Qual é o seu e-mail?", saveAs: "contact.email", validate: "email", invalidText: "Esse e-mail não parece válido. Tente de novo.", retries: 2 } },
      { id: "menu", type: "menu", position: { x: 0, y: 360 }, data: { text: "Obrigado! Com quem você quer falar?", options: [{ id: "vendas", label: "Vendas" }, { id: "suporte", label: "Suporte" }], invalidText: "Responda com o número de uma opção." } },
      { id: "to-sales", type: "transfer", position: { x: -160, y: 500 }, data: { queueId: queueOf("Vendas"), text: "Um momento: você está na fila de Vendas." } },
      { id: "to-support", type: "transfer", position: { x: 160, y: 500 }, data: { queueId: queueOf("Suporte"), text: "Um momento: você está na fila de Suporte." } },
    ],
    edges: [
      { source: "start", target: "greet" },
      { source: "greet", target: "email" },
      { source: "email", target: "menu" },
      { source: "menu", target: "to-sales", sourceHandle: "vendas" },
      { source: "menu", target: "to-support", sourceHandle: "suporte" },
    ],
  });
  await api("POST", `/flows/${flow.id}/publish`);
};
