import { Logger as PowertoolsLogger } from "@aws-lambda-powertools/logger";
import { lambdaRuntime } from "./config";
import { correlationFields, redactFields, type Correlation } from "@atende/shared/logging/log-fields";

type Level = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;
/** The logging port of the functions: services and handlers log through it, never through console. */
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
};

const adapt = (pt: PowertoolsLogger): Logger => ({
  debug: (m, f) => pt.debug(m, redactFields(f)),
  info: (m, f) => pt.info(m, redactFields(f)),
  warn: (m, f) => pt.warn(m, redactFields(f)),
  error: (m, f) => pt.error(m, redactFields(f)),
  child: (fields) => adapt(pt.createChild({ persistentKeys: redactFields(fields) })),
});

/**
 * The adapter: Powertools Logger (one JSON line per call: level, message, timestamp, service, sampling_rate,
 * xray_trace_id in Lambda, then the fields), in Lambda, in the local runner and in tests alike. Secrets are
 * redacted by key at any depth before Powertools sees them. Level from LOG_LEVEL; debug sampling from
 * POWERTOOLS_LOGGER_SAMPLE_RATE (a share of invocations logged at debug, set on the Lambdas by infra/aws).
 */
export const createLogger = (level: Level | "silent" = "info", base: LogFields = {}): Logger => {
  // `service` is Powertools' own key: given in the base fields, it names the service.
  const { service, ...rest } = base;
  return adapt(
    new PowertoolsLogger({
      serviceName: typeof service === "string" ? service : (lambdaRuntime().serviceName ?? "atende"),
      logLevel: level === "silent" ? "SILENT" : (level.toUpperCase() as "INFO"),
      persistentKeys: redactFields(rest),
    }),
  );
};

/** A child carrying the known correlation fields (requestId, companyId, ticketId, connectionId). */
export const withCorrelation = (logger: Logger, known: Correlation): Logger => logger.child(correlationFields(known));
