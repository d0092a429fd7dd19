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
