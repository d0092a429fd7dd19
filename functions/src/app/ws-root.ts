import type { Config } from "../platform/config";
import { createDb, type Db } from "../platform/db/client";
import { createLogger, type Logger } from "../platform/logger";
import { createMetrics, type Metrics } from "../platform/metrics";
import type { JobQueue } from "../platform/queues/jobs.port";
import type { SocketSender } from "../platform/realtime/sender.port";
import { createSessionAuthenticator } from "../features/auth/session-authenticator";
import { createTokens } from "../features/auth/tokens";
import { createConnectionsRepository } from "../features/realtime/connections.repository";
import { createRealtimeModule, createSocketsModule } from "../features/realtime/realtime.module";
import { createUsersRepository } from "../features/users/users.repository";
import { createUserView } from "../features/users/user-view";
import { createQueuesRepository } from "../features/queues/queues.repository";
import { createWhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import { createAgentsRepository } from "../features/presence/agents.repository";
import { createSocketPresenceListeners } from "../features/presence/socket-presence";
import { createJobQueue, createSocketSender } from "./ports";
import { createWebchatRepository } from "../features/channels/webchat/webchat.repository";
import { createWebchatAccess } from "../features/channels/webchat/webchat-access";
import { createWebchatSockets } from "../features/channels/webchat/webchat-sockets";
import { createAttemptLimiter } from "../platform/limits/attempt-limiter";

/**
 * The WebSocket Lambda's composition root (docs/adr/0038-per-lambda-composition.md): $connect, $default and
 * $disconnect need the sockets and presence of the realtime feature, the access-token check, the users'
 * presence fields and the agents' items (docs/adr/0044: a job is queued when the status must follow), the website
 * chat visitors' token check (docs/adr/0096), nothing else. Built from the same factories as the whole container (container.ts), so the sockets behave the same in the local runner (which uses the container) and here; esbuild bundles only this.
 */
export const createWsRoot = (
  config: Config,
  overrides: { db?: Db; sender?: SocketSender; jobs?: JobQueue; logger?: Logger; metrics?: Metrics; clock?: () => Date } = {},
) => {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const metrics = overrides.metrics ?? createMetrics();
  const clock = overrides.clock ?? (() => new Date());
  const db = overrides.db ?? createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION, transport: config.DYNAMODB_TRANSPORT });
  const sender = createSocketSender(config, metrics, logger, overrides.sender);
  const jobs = createJobQueue(config, overrides.jobs);
  const connections = createConnectionsRepository(db);
  const users = createUsersRepository(db);
  const tokens = createTokens({
    accessSecret: config.JWT_SECRET,
    refreshSecret: config.JWT_REFRESH_SECRET,
    accessTtl: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtl: config.REFRESH_TOKEN_TTL_SECONDS,
  });
  const realtime = createRealtimeModule({ connections, sender, logger, clock }).service;
  const auth = { authenticateSession: createSessionAuthenticator({ tokens, users }) };
  // the agent status follows the sockets (docs/adr/0044): $connect/$disconnect read the agent's item and queue a job
  const socketPresence = createSocketPresenceListeners({ agents: createAgentsRepository(db), jobs, graceSeconds: config.AGENT_OFFLINE_GRACE_SECONDS });
  const { sockets } = createSocketsModule({
    connections,
    users,
    // presence announces the whole user (ADR 0068): its queues' and connection's names, read from their items
    userView: createUserView({ users, queues: createQueuesRepository(db), whatsapps: createWhatsappsRepository(db) }),
    auth,
    realtime,
    jobs,
    sender,
    clock,
    logger,
    onConnected: [socketPresence.connected],
    onDisconnected: [socketPresence.disconnected],
  }).service;
  // the website chat visitors' sockets (docs/adr/0096): the visitor token and origin check, nothing of the agents'
  const webchatRepo = createWebchatRepository(db);
  const webchatSockets = createWebchatSockets({ repo: webchatRepo, access: createWebchatAccess({ repo: webchatRepo, clock }), limiter: createAttemptLimiter(db, clock), sender, clock, logger });
  return { sockets, webchatSockets };
};
export type WsRoot = ReturnType<typeof createWsRoot>;
