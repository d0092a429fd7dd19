import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import type { Logger } from "../../logger";
import { noMetrics, recordMessageOut, recordSendFailure, type Metrics } from "../../metrics";
import type { MediaStore } from "../../storage/media-store.port";
import type { ChannelCommand } from "../channel.port";
import type { GraphApiClient, SendPayload } from "./graph-api.client";
import { classifyGraphError, failureText, GraphApiError, retryDelayMs } from "./graph-api-errors";
import type { SendGates } from "./throughput-limiter";

/** A connection's Cloud API settings with the token opened (never logged, never answered). */
export type CloudApiSettings = {
  companyId: number;
  whatsappId: number;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  graphApiUrl: string;
  throughputPerSecond: number;
};

/** wamid ↔ our message id, and the once-only claim of each send attempt. */
export type CloudApiIds = {
  /** true once per key: a second delivery of the same job attempt is skipped */
  claim(companyId: number, key: string, now: Date): Promise<boolean>;
  link(companyId: number, ourId: string, wamid: string, now: Date): Promise<void>;
  wamidOf(companyId: number, ourId: string): Promise<string | null>;
  ourIdOf(companyId: number, wamid: string): Promise<string | null>;
};

/**
 * One unit of Cloud API work: a channel command and where it stands (attempt: refusals so far; turn: deliveries;
 * reservedAt: the pacing slot (epoch ms) this job already holds after it was sent back to wait for it, so the
 * gates are not asked again — asking again would reserve a second slot and push it further each turn).
 */
export type CloudApiJob = { command: ChannelCommand; attempt: number; turn: number; reservedAt?: number };

/** How a send's job ended: over (`settled`; `duplicate`: an earlier delivery claimed it), or back in the queue. */
export type SendOutcome = "settled" | "duplicate" | "later";

export type CloudApiSenderDeps = {
  settings(companyId: number, whatsappId: number): Promise<CloudApiSettings | null>;
  graph(settings: CloudApiSettings): GraphApiClient;
  ids: CloudApiIds;
  media: MediaStore;
  /** puts an inbound event (command.result) on the inbound path, as the session host does */
  report(event: InboundEvent): Promise<void>;
  /** runs the job again after `delayMs` (the jobs queue with a delay) */
  later(job: CloudApiJob, delayMs: number): Promise<void>;
  gates: SendGates;
  clock: () => Date;
  logger: Logger;
  /** Graph calls per message before giving up on rate-limit refusals (130429, 131056 ...) */
  maxAttempts?: number;
  /** waits up to this long in process for a pacing slot; longer waits go back to the queue */
  maxInlineWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** messages out and send failures (provider `cloud-api`) */
  metrics?: Metrics;
};

const digits = (jid: string) => jid.split("@")[0]!.replace(/\D/g, "");
const CAPTIONED = new Set(["image", "video", "document"]);

/**
 * Sends channel commands to the Graph API (docs/adr/0028-cloud-api-provider.md). A send is claimed once per
 * attempt and retried only after Meta refused it (rate limits 130429, 131056 ...: nothing was sent), with backoff,
 * so a message is never sent twice; any other failure (Meta's code and title, or an unknown outcome) is reported as
 * a failed command result and shown on the message.
 */
export const createCloudApiSender = (deps: CloudApiSenderDeps) => {
  const maxAttempts = deps.maxAttempts ?? 5;
  const maxInline = deps.maxInlineWaitMs ?? 2_000;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const metrics = deps.metrics ?? noMetrics;

  /** `code`: the failure's short code for the metric (ours, or Meta's number), when `error` is a longer text */
  const fail = (c: ChannelCommand & { type: "send" }, error: string, code = error) => {
    recordSendFailure(metrics, code, "cloud-api");
    return deps.report({ type: "command.result", eventId: `cloudapi:${c.commandId}:failed`, companyId: c.companyId, whatsappId: c.whatsappId, commandId: c.commandId, messageId: c.messageId, ok: false, error });
  };

  const payloadOf = async (s: CloudApiSettings, graph: GraphApiClient, c: ChannelCommand & { type: "send" }): Promise<SendPayload> => {
    const to = digits(c.chatJid);
    const quoted = c.quotedId ? ((await deps.ids.wamidOf(c.companyId, c.quotedId)) ?? c.quotedId) : null;
    const context = quoted ? { context: { message_id: quoted } } : {};
    if (c.template) return { to, type: "template", template: { name: c.template.name, language: { code: c.template.language }, components: c.template.components }, ...context };
    if (c.media) {
      const obj = await deps.media.get(c.media.key);
      if (!obj) throw new GraphApiError(0, "ERR_WAPP_DOWNLOAD_MEDIA", 404);
      const mediaId = await graph.uploadMedia(s.phoneNumberId, obj.body, c.media.mimetype || obj.mimetype, c.media.filename ?? "file");
      const kind = c.media.kind;
      const media: Record<string, string> = { id: mediaId };
      if (CAPTIONED.has(kind) && c.body) media.caption = c.body;
      if (kind === "document" && c.media.filename) media.filename = c.media.filename;
      return { to, type: kind, [kind]: media, ...context };
    }
    const i = c.interactive;
    if (i?.kind === "buttons")
      return { to, type: "interactive", interactive: { type: "button", body: { text: i.text }, action: { buttons: i.buttons.map((b) => ({ type: "reply", reply: { id: b.id, title: b.title } })) } }, ...context };
    if (i?.kind === "list") return { to, type: "interactive", interactive: { type: "list", body: { text: i.text }, action: { button: i.button, sections: [{ title: i.button, rows: i.rows }] } }, ...context };
    return { to, type: "text", text: { body: c.body, preview_url: /https?:\/\//.test(c.body) }, ...context };
  };

  /** `later`: sent back to the queue to wait (pacing, a rate-limit refusal); otherwise the send is over for this job */
  const send = async (s: CloudApiSettings, job: CloudApiJob & { command: { type: "send" } }): Promise<SendOutcome> => {
    const c = job.command;
    const now = deps.clock().getTime();
    let wait: number;
    if (job.reservedAt !== undefined) wait = Math.max(0, job.reservedAt - now);
    else {
      wait = await deps.gates.throughput(s.phoneNumberId, s.throughputPerSecond, now);
      if (c.bulk) wait = Math.max(wait, await deps.gates.pair(s.phoneNumberId, digits(c.chatJid), now));
    }
    if (wait > maxInline) {
      await deps.later({ ...job, turn: job.turn + 1, reservedAt: now + wait }, wait);
      return "later";
    }
    if (wait > 0) await sleep(wait);
    if (!(await deps.ids.claim(c.companyId, `${c.commandId}#${job.attempt}`, deps.clock()))) return "duplicate";
    const graph = deps.graph(s);
    try {
      const { wamid } = await graph.sendMessage(s.phoneNumberId, await payloadOf(s, graph, c));
      await deps.ids.link(c.companyId, c.messageId, wamid, deps.clock());
      recordMessageOut(metrics, "cloud-api");
      await deps.report({ type: "command.result", eventId: `cloudapi:${c.commandId}:ok`, companyId: c.companyId, whatsappId: c.whatsappId, commandId: c.commandId, messageId: c.messageId, ok: true });
      return "settled";
    } catch (err) {
      if (err instanceof GraphApiError) {
        if (classifyGraphError(err.code) === "retry" && job.attempt + 1 < maxAttempts) {
          deps.logger.warn("cloud-api: refused by rate limit, retrying", { companyId: c.companyId, whatsappId: c.whatsappId, code: err.code, attempt: job.attempt });
          // a refused send takes new pacing slots when it comes back
          await deps.later({ command: job.command, attempt: job.attempt + 1, turn: job.turn + 1 }, retryDelayMs(err.code, job.attempt));
          return "later";
        }
        if (err.title === "ERR_WAPP_DOWNLOAD_MEDIA") await fail(c, "ERR_WAPP_DOWNLOAD_MEDIA");
        else await fail(c, failureText(err.code, err.title), String(err.code));
        return "settled";
      }
      // no answer (timeout, network): Meta may have sent it, so it is not retried
      deps.logger.warn("cloud-api: send outcome unknown", { companyId: c.companyId, whatsappId: c.whatsappId, err: String(err) });
      await fail(c, "ERR_SENDING_WAPP_MSG");
      return "settled";
    }
  };

  return {
    /** Runs one job; a send answers whether it is over (`settled`, `duplicate`) or waits in the queue (`later`). */
    async run(job: CloudApiJob): Promise<SendOutcome | void> {
      const c = job.command;
      const s = await deps.settings(c.companyId, c.whatsappId);
      if (!s) {
        if (c.type === "send") await fail(c, "ERR_NO_WAPP_FOUND");
        return "settled";
      }
      switch (c.type) {
        case "send":
          return send(s, job as CloudApiJob & { command: { type: "send" } });
        case "react": {
          const target = (await deps.ids.wamidOf(c.companyId, c.targetId)) ?? c.targetId;
          await deps
            .graph(s)
            .sendMessage(s.phoneNumberId, { to: digits(c.chatJid), type: "reaction", reaction: { message_id: target, emoji: c.emoji } })
            .catch((err) => deps.logger.warn("cloud-api: reaction failed", { companyId: c.companyId, err: String(err) }));
          return;
        }
        case "read": {
          // marking the newest as read marks the earlier ones too
          const last = c.messageIds.at(-1);
          if (last) await deps.graph(s).markRead(s.phoneNumberId, last).catch((err) => deps.logger.warn("cloud-api: mark read failed", { companyId: c.companyId, err: String(err) }));
          return;
        }
        default:
          // edit, delete for everyone, presence and call rejection do not exist on the Cloud API: the inbox never
          // offers them (capabilities); a stray command is dropped
          deps.logger.warn("cloud-api: unsupported command dropped", { companyId: c.companyId, type: c.type });
      }
    },
  };
};
export type CloudApiSender = ReturnType<typeof createCloudApiSender>;
