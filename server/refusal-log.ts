/**
 * Refusals a visitor can repeat at will (limits reached, honeypot, wrong
 * tracking codes, caps) must not let them write one log line each (issue 28:
 * "counted and summarised per minute, never logged one by one"). Each one is
 * logged at debug level; at warn level, one line per interval says how many
 * of each reason there were. Callers pass no personal data: reasons are
 * fixed words, and the fields a pseudonymized IP at most.
 */
import type { Logger } from "pino";

/** Interval of the summary line, ms. */
export const REFUSAL_SUMMARY_MS = 60_000;
/** Distinct reasons one summary line holds at most; others are counted as `autres` (issue 37 §5: bounded maps). */
export const MAX_REFUSAL_REASONS = 32;
/** The key of the reasons past `MAX_REFUSAL_REASONS`. */
export const OTHER_REASONS = "autres";

/** Counts one refusal of `reason` (a fixed word, e.g. "limite"); `fields` go to the debug line only. */
export type RefusalLog = (reason: string, fields?: Record<string, unknown>) => void;

/**
 * A refusal log writing `message` with `{ refusals: { <reason>: count } }` once per `intervalMs` after
 * the first refusal of a quiet period (nothing is written while nothing is refused). The timer does
 * not keep the process alive.
 */
export function createRefusalLog(logger: Logger, message: string, intervalMs = REFUSAL_SUMMARY_MS): RefusalLog {
  let counts = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (counts.size === 0) return;
    logger.warn({ refusals: Object.fromEntries(counts), intervalSeconds: intervalMs / 1000 }, message);
    counts = new Map();
  };
  return (reason, fields = {}) => {
    logger.debug({ ...fields, reason }, message);
    const key = counts.has(reason) || counts.size < MAX_REFUSAL_REASONS ? reason : OTHER_REASONS;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!timer) {
      timer = setTimeout(flush, intervalMs);
      timer.unref?.();
    }
  };
}

const shared = new WeakMap<Logger, Map<string, RefusalLog>>();

/**
 * The one refusal log of `message` on `logger` in this process: handlers made per connection (sockets)
 * share it, so a thousand flooding connections still write one summary line a minute, not one each.
 */
export function sharedRefusalLog(logger: Logger, message: string): RefusalLog {
  let byMessage = shared.get(logger);
  if (!byMessage) shared.set(logger, (byMessage = new Map()));
  let log = byMessage.get(message);
  if (!log) byMessage.set(message, (log = createRefusalLog(logger, message)));
  return log;
}
