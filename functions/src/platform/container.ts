import { createAuthService } from "../features/auth/auth.service";
import { createLoginThrottleRepository } from "../features/auth/login-throttle.repository";
import { createTokens } from "../features/auth/tokens";
import { createCompaniesRepository } from "../features/companies/companies.repository";
import { createCompaniesService } from "../features/companies/companies.service";
import { createPlansRepository } from "../features/plans/plans.repository";
import { createQueuesRepository } from "../features/queues/queues.repository";
import { createConnectionsRepository } from "../features/realtime/connections.repository";
import { createRealtimeService } from "../features/realtime/realtime.service";
import { createSocketsService } from "../features/realtime/sockets.service";
import { createSeedService } from "../features/seed/seed.service";
import { createSettingsRepository } from "../features/settings/settings.repository";
import { createUsersRepository } from "../features/users/users.repository";
import { createWhatsappsRepository } from "../features/whatsapps/whatsapps.repository";
import type { Config } from "./config";
import { createDb, type Db } from "./db/client";
import { createLogger, type Logger } from "./logger";
import type { CommandQueue } from "./queues/commands.port";
import { createSqsCommandQueue } from "./queues/sqs-commands.adapter";
import { createApiGatewaySender } from "./realtime/apigateway-sender.adapter";
import type { SocketSender } from "./realtime/sender.port";

/** Ports a caller may replace (tests use in-memory adapters). */
export type Overrides = { sender?: SocketSender; clock?: () => Date; logger?: Logger; db?: Db; commands?: CommandQueue };

/** Wires repositories, services and adapters once per process (Lambda cold start, local runner, test file). */
export const createContainer = (config: Config, overrides: Overrides = {}) => {
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const clock = overrides.clock ?? (() => new Date());
  const db = overrides.db ?? createDb({ tableName: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION });
  const sender =
    overrides.sender ??
    (config.WS_MANAGEMENT_ENDPOINT
      ? createApiGatewaySender(config.WS_MANAGEMENT_ENDPOINT, config.AWS_REGION, Boolean(config.DYNAMODB_ENDPOINT))
      : { post: async () => "gone" as const, disconnect: async () => {} });

  const commands: CommandQueue =
    overrides.commands ??
    (config.QUEUE_URL_OUTBOUND
      ? createSqsCommandQueue({ queueUrl: config.QUEUE_URL_OUTBOUND, region: config.AWS_REGION, endpoint: config.SQS_ENDPOINT })
      : {
          send: async () => {
            throw new Error("QUEUE_URL_OUTBOUND is not configured");
          },
        });

  const repos = {
    users: createUsersRepository(db),
    companies: createCompaniesRepository(db),
    plans: createPlansRepository(db),
    settings: createSettingsRepository(db),
    queues: createQueuesRepository(db),
    whatsapps: createWhatsappsRepository(db),
    connections: createConnectionsRepository(db),
    throttle: createLoginThrottleRepository(db, config.LOGIN_WINDOW_SECONDS),
  };
  const tokens = createTokens({
    accessSecret: config.JWT_SECRET,
    refreshSecret: config.JWT_REFRESH_SECRET,
    accessTtl: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtl: config.REFRESH_TOKEN_TTL_SECONDS,
  });
  const realtime = createRealtimeService({ connections: repos.connections, sender, logger });
  const auth = createAuthService({ ...repos, realtime, tokens, logger, clock, maxAttempts: config.LOGIN_MAX_ATTEMPTS });
  const companies = createCompaniesService(repos);
  const sockets = createSocketsService({ connections: repos.connections, users: repos.users, auth, realtime, clock, logger });
  const seed = createSeedService({ ...repos, clock, bcryptRounds: config.BCRYPT_ROUNDS });

  return { config, logger, clock, db, commands, repos, tokens, services: { auth, companies, realtime, sockets, seed } };
};
export type Container = ReturnType<typeof createContainer>;
