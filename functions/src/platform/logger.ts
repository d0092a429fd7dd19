import { AsyncLocalStorage } from "node:async_hooks";
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

/**
 * The correlation of the unit of work running now (an HTTP request, a queue message, a job): set where the work
 * starts (`runWithCorrelation`), completed as it is learned (`addCorrelation`, e.g. the company once the caller is
 * known), and added to every line logged inside it, whichever logger writes. Kept per async context, so concurrent
 * requests in one process (the local runner) never mix their fields.
 */
const correlation = new AsyncLocalStorage<Correlation>();
export const runWithCorrelation = <T>(known: Correlation, fn: () => T): T => correlation.run({ ...correlation.getStore(), ...known }, fn);
export const addCorrelation = (known: Correlation): void => {
  const current = correlation.getStore();
  if (current) Object.assign(current, known);
};
/** The line's fields after the context's correlation (a field given on the line wins). */
const inContext = (fields?: LogFields): LogFields | undefined => {
  const current = correlation.getStore();
  return current ? { ...correlationFields(current), ...fields } : fields;
};

const adapt = (pt: PowertoolsLogger): Logger => ({
  debug: (m, f) => pt.debug(m, redactFields(inContext(f))),
  info: (m, f) => pt.info(m, redactFields(inContext(f))),
  warn: (m, f) => pt.warn(m, redactFields(inContext(f))),
  error: (m, f) => pt.error(m, redactFields(inContext(f))),
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
