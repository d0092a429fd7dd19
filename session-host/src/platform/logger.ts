import { Logger as PowertoolsLogger } from "@aws-lambda-powertools/logger";
import { redactFields } from "@atende/shared/logging/log-fields";

type Level = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;
/** The logging port of the session host (the same shape as the functions'). */
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

/** Powertools Logger lines (the functions' shape: level, message, timestamp, service, fields), secrets redacted by key. */
export const createLogger = (level: Level | "silent" = "info", base: LogFields = {}): Logger => {
  // `service` is Powertools' own key: given in the base fields, it names the service.
  const { service, ...rest } = base;
  return adapt(
    new PowertoolsLogger({
      serviceName: typeof service === "string" ? service : (process.env.POWERTOOLS_SERVICE_NAME ?? "atende"),
      logLevel: level === "silent" ? "SILENT" : (level.toUpperCase() as "INFO"),
      persistentKeys: redactFields(rest),
    }),
  );
};
