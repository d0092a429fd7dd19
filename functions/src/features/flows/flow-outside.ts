import { DEFAULT_SCHEDULES } from "@atende/shared/constants/business";
import type { OutboundFetch } from "../../platform/net/outbound-fetch";
import { businessMsBetween, type HoursEntry } from "@atende/shared/domain/calendar/business-time";
import type { FlowDeps } from "./flow-engine";

/** An `http` node's answer is read up to this size (JSON for saveAs; anything else is kept as text). */
export const FLOW_HTTP_MAX_BODY_BYTES = 256 * 1024;

/**
 * The `http` node's call: through THE outbound guard (ADR 0062: public addresses only, each redirect hop checked, the
 * body capped), with the node's time limit (at most 10 s). Errors are our own words: the caller never shows the
 * outside answer's body in a note.
 */
export const createFlowHttp =
  (fetchImpl: OutboundFetch): FlowDeps["http"] =>
  async (req) => {
    const signal = AbortSignal.timeout(req.timeoutMs);
    const hasBody = req.body !== undefined && req.method !== "GET";
    const res = await fetchImpl(req.url, {
      method: req.method,
      headers: { accept: "application/json", ...(hasBody ? { "content-type": "application/json" } : {}), ...req.headers },
      ...(hasBody ? { body: req.body } : {}),
      signal,
      timeoutMs: req.timeoutMs,
      maxBodyBytes: FLOW_HTTP_MAX_BODY_BYTES,
    });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: `$` is the text
    }
    return { status: res.status, json };
  };

/** The `inBusinessHours` condition: the company's schedules in its time zone (the automation's own check). */
export const createBusinessHours =
  (company: (companyId: number) => Promise<{ schedules?: HoursEntry[] | null; timezone?: string | null } | null>, clock: () => Date) =>
  (companyId: number) =>
  async (): Promise<boolean> => {
    const c = await company(companyId);
    const now = clock();
    // open now = some business time in the next minute (the SLA calendar: ranges A and B, no entries = always open)
    const cal = { timeZone: c?.timezone || "America/Sao_Paulo", hours: c?.schedules ?? (DEFAULT_SCHEDULES as HoursEntry[]), holidays: new Set<string>() };
    return businessMsBetween(now, new Date(now.getTime() + 60_000), cal) > 0;
  };
