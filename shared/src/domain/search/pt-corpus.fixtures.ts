/**
 * A corpus of realistic Portuguese customer-service conversations (tests and the search bench, docs/adr/0035):
 * billing, delivery, support, sales; accents, plurals, feminine forms, abbreviations, numbers. `corpus(n, seed)` is
 * deterministic. The `MARKED` messages are the ones recall and ranking tests look for.
 */
const CUSTOMER = [
  "Oi, bom dia! Meu boleto venceu ontem, consigo pagar ainda?",
  "Boa tarde, preciso da segunda via do boleto por favor",
  "Olá, a fatura deste mês veio com valor errado",
  "Quando chega meu pedido? Já faz {n} dias",
  "O entregador não apareceu, fiquei esperando a manhã toda",
  "Gostaria de cancelar minha assinatura",
  "Vocês aceitam pix? Não tenho cartão de crédito",
  "O produto chegou quebrado, quero trocar",
  "Meu pedido número {n} está atrasado",
  "Não consigo acessar o aplicativo, diz senha inválida",
  "Qual o horário de atendimento de vocês?",
  "Tem desconto para pagamento à vista?",
  "A internet caiu de novo aqui em casa",
  "Quero falar com um atendente humano",
  "Recebi uma cobrança duplicada no cartão",
  "Obrigado pela ajuda, resolveu!",
  "Como faço para alterar o endereço de entrega?",
  "Vocês entregam em Campinas?",
  "O técnico pode vir amanhã de manhã?",
  "Minha mensalidade aumentou sem aviso",
  "Preciso da nota fiscal da compra",
  "Paguei a conta mas continua aparecendo em aberto",
  "ok",
  "sim",
  "Bom dia",
  "Está bem, vou aguardar",
  "Mandei o comprovante agora há pouco",
  "Não recebi o código de rastreamento",
  "Posso parcelar em quantas vezes?",
  "A encomenda foi entregue no endereço errado",
  "Meu boleto está vencido, podem mandar outro atualizado?",
  "A entrega está atrasada de novo",
];
const AGENT = [
  "Olá! Sou {a}, vou te ajudar. Pode me informar o CPF do titular?",
  "Claro! Já estou gerando a segunda via, um momento",
  "Verifiquei aqui e o pagamento foi identificado, obrigado",
  "Seu pedido saiu para entrega hoje pela manhã",
  "Peço desculpas pelo transtorno, vou abrir uma solicitação de troca",
  "O prazo de entrega é de até {n} dias úteis",
  "Aceitamos pix, cartão e boleto bancário",
  "Enviei o link para redefinir a senha no seu e-mail",
  "Nosso horário é de segunda a sexta, das 8h às 18h",
  "Agendei a visita técnica para amanhã entre 8h e 12h",
  "A cobrança duplicada será estornada em até 2 faturas",
  "Posso ajudar em algo mais?",
  "Vou transferir para o setor financeiro",
  "A nota fiscal foi enviada para o seu e-mail cadastrado",
  "Atualizei o endereço de entrega, tudo certo",
];
const AGENTS = ["Ana", "Bruno", "Carla", "Diego", "Eduarda", "Fábio"];

/** Messages the recall and ranking tests look for (with their ids in a corpus). */
export const MARKED = [
  { id: "mk-boleto-vencido", body: "Bom dia, estou com um boleto vencido desde o dia 10, como faço para pagar?" },
  { id: "mk-boletos-vencidos", body: "Tenho dois boletos vencidos, vocês podem mandar atualizados?" },
  { id: "mk-segunda-via", body: "Preciso urgente da 2ª via da conta de luz, a segunda via não chegou" },
  { id: "mk-notificacao", body: "Não recebi nenhuma notificação sobre a cobrança" },
  { id: "mk-acentos", body: "A INSTALAÇÃO do serviço foi agendada para março, não para abril" },
  { id: "mk-cartoes", body: "Meus cartões foram recusados na loja" },
];

let state = 1;
const rand = () => {
  state = (state * 1103515245 + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

export type CorpusMessage = { id: string; body: string; fromMe: boolean; conversation: number; seq: number };

/**
 * `n` messages in conversations of 4–12 messages (customer and attendant alternating), deterministic for a seed;
 * the marked messages are placed at fixed positions when `withMarked`.
 */
export const corpus = (n: number, seed = 7, withMarked = true): CorpusMessage[] => {
  state = seed;
  const out: CorpusMessage[] = [];
  let conversation = 0;
  while (out.length < n) {
    conversation++;
    const len = 4 + Math.floor(rand() * 9);
    for (let i = 0; i < len && out.length < n; i++) {
      const fromMe = i % 2 === 1;
      const body = (fromMe ? pick(AGENT) : pick(CUSTOMER)).replace("{n}", String(2 + Math.floor(rand() * 90_000))).replace("{a}", pick(AGENTS));
      out.push({ id: `c${seed}-${out.length}`, body, fromMe, conversation, seq: i });
    }
  }
  if (withMarked) MARKED.forEach((m, i) => (out[Math.floor(((i + 1) * n) / (MARKED.length + 2))] = { ...out[Math.floor(((i + 1) * n) / (MARKED.length + 2))]!, id: m.id, body: m.body, fromMe: false }));
  return out;
};
