/**
 * The server's logger (issue 13 §6 "Secrets and personal data in logs"):
 * pino, one JSON line per entry (readable lines in a terminal, issue 16 §3),
 * with nothing in it that identifies a visitor or opens an account.
 *
 * Three layers, because each catches what the others cannot:
 * - `redactUrl(url)` rewrites a request URL before it is logged: the path
 *   segment after `/reset-password/` (a better-auth token), the session code
 *   in `/api/sessions/<code>/…`, any long opaque segment, and every
 *   query-string value (names kept, so `?token=` and `?callbackURL=` still
 *   show which route was used).
 * - `serializeError` (the `err` and `error` serializer) keeps an error's
 *   class, message, code and stack frames, and drops what database errors
 *   carry besides: Drizzle's `params` (the inserted values, also appended to
 *   its message), PostgreSQL's `detail` ("Failing row contains (…)"),
 *   `where`, and any other property. Messages are scrubbed of e-mail
 *   addresses and long tokens.
 * - pino's `redact` censors personal or secret fields (`REDACT_PATHS`) that
 *   a call site might still pass, with the fixed marker `REDACTED`.
 *
 * Call sites log ids (`userId`, `sessionId`, request `id`), never names,
 * e-mail addresses, session codes or IP addresses; rate-limit warnings use
 * `pseudonymizeIp`.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { pino, type DestinationStream, type Logger } from "pino";
import type { Env } from "./env.ts";
import { createRefusalLog } from "./refusal-log.ts";

/** What replaces a secret or a personal value, in fields and in URLs. */
export const REDACTED = "[masqué]";

/**
 * Field paths censored in every entry (fast-redact syntax: `*` is one level).
 * Top level and one level down, since call sites write `{ email }` as well as
 * `{ user: { email } }`. Not `*.code` nor `*.message`: an error's `code`
 * (e.g. SQLSTATE 23514) and `message` are kept, and scrubbed by `serializeError`.
 */
export const REDACT_PATHS: readonly string[] = [
  ...[
    "password",
    "newPassword",
    "currentPassword",
    "token",
    // Issue 15: the desktop app's secrets, should a call site ever pass them.
    "deviceToken",
    "pairingCode",
    // Issue 36 §4: the single-use ticket of the app relaunched as administrator.
    "ticket",
    "accessToken",
    "refreshToken",
    "idToken",
    "secret",
    "cookie",
    "email",
    "userEmail",
    "name",
    "userName",
    "contactName",
    "companyName",
    "phone",
    "ip",
    "ipAddress",
    "remoteAddress",
    "sessionCode",
    "params",
    "detail",
    "body",
  ].flatMap((key) => [key, `*.${key}`]),
  // Free text typed by visitors, where the key is unambiguous at the top level.
  "code",
  "message",
  "description",
  "text",
  "content",
  "session.code",
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
];

/** Named routes under `/api/sessions/`; any other segment there is a session code. */
const SESSION_ROUTE_WORDS = new Set(["mine", "join", "active", "history"]);
/** A run of URL-safe characters long enough to be a token (better-auth's are 24 to 32). */
const LONG_RUN = /[A-Za-z0-9_~-]{24,}/g;

/**
 * Whether a long run looks like a token rather than a name: it has a digit,
 * and an upper-case letter or no hyphen. Keeps page slugs
 * (`galaxy-z-fold-5-ecran-interne`), index and constraint names
 * (`contact_requests_created_at_idx`) and UUIDs (ids, not secrets) readable.
 */
function looksLikeToken(run: string): boolean {
  return /\d/.test(run) && (/[A-Z]/.test(run) || !run.includes("-"));
}
/** A query-string name worth keeping as it is; anything else (very long, odd characters) is masked too. */
const PLAIN_NAME = /^[A-Za-z0-9_.[\]-]{1,40}$/;

/**
 * A request URL (path and query, as `req.url`) safe to log: the shape of the
 * route stays, the secrets and personal values go. Examples:
 * `/api/auth/reset-password/Xk…?callbackURL=%2F` → `/api/auth/reset-password/[masqué]?callbackURL=[masqué]`;
 * `/api/sessions/ACDE34/report` → `/api/sessions/[masqué]/report`.
 * The fragment (never sent by browsers) is dropped; `undefined` stays `undefined`.
 */
export function redactUrl(url: string): string;
export function redactUrl(url: string | undefined): string | undefined;
export function redactUrl(url: string | undefined): string | undefined {
  if (typeof url !== "string") return url;
  const withoutFragment = url.split("#", 1)[0]!;
  const queryAt = withoutFragment.indexOf("?");
  const pathPart = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : withoutFragment.slice(queryAt + 1);

  const segments = pathPart.split("/");
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "") continue;
    // Empty segments skipped: `/api//sessions/<code>` still carries a code.
    const earlier = segments
      .slice(0, i)
      .filter(Boolean)
      .map((word) => word.toLowerCase());
    // Everything after /reset-password/ belongs to the token.
    if (earlier.includes("reset-password")) segments[i] = REDACTED;
    else if (
      earlier.at(-1) === "sessions" &&
      earlier.at(-2) === "api" &&
      !SESSION_ROUTE_WORDS.has(segment.toLowerCase())
    )
      segments[i] = REDACTED;
    else if (segment.length >= 24 && /^[A-Za-z0-9_~-]+$/.test(segment) && looksLikeToken(segment))
      segments[i] = REDACTED;
  }
  const path = segments.join("/");
  if (query === undefined) return path;
  const redactedQuery = query
    .split("&")
    .map((pair) => {
      if (pair === "") return pair;
      const equals = pair.indexOf("=");
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const safeName = PLAIN_NAME.test(name) ? name : REDACTED;
      return equals === -1 ? safeName : `${safeName}=${REDACTED}`;
    })
    .join("&");
  return `${path}?${redactedQuery}`;
}

const EMAIL_ADDRESS = /[^\s@<>"'`(),;:[\]]+@[^\s@<>"'`(),;:[\]]+\.[A-Za-z]{2,}/g;
/** Drizzle appends the query's values to its message: `Failed query: …\nparams: Léa,lea@…`. */
const DRIZZLE_PARAMS = /\nparams:[\s\S]*$/;

/** JSON.parse quotes the start of what it could not read: `Unexpected token 'L', "Léa Martin…" is not valid JSON`. */
const JSON_SNIPPET = /"(?:[^"\\]|\\.)*"(?= is not valid JSON)/g;

/** `text` with e-mail addresses, long tokens, Drizzle's parameter list and JSON.parse's quote of its input replaced by `REDACTED`. */
export function scrubText(text: string): string {
  return text
    .replace(DRIZZLE_PARAMS, `\nparams: ${REDACTED}`)
    .replace(JSON_SNIPPET, `"${REDACTED}"`)
    .replace(EMAIL_ADDRESS, REDACTED)
    .replace(LONG_RUN, (run) => (looksLikeToken(run) ? REDACTED : run));
}

/** Error properties worth keeping: identifiers of what failed, never values. */
const KEPT_ERROR_FIELDS = [
  "code",
  "status",
  "statusCode",
  "errno",
  "syscall",
  "table",
  "constraint",
  "column",
] as const;
/** How deep `cause` chains are followed. */
const MAX_CAUSE_DEPTH = 3;

export type SerializedError = {
  type: string;
  message: string;
  stack?: string;
  cause?: SerializedError | string;
  errors?: (SerializedError | string)[];
} & Partial<Record<(typeof KEPT_ERROR_FIELDS)[number], string | number>>;

/**
 * pino's `err` serializer: `{ type, message, stack, cause?, errors?, code?,
 * status?, … }`, with the message scrubbed (`scrubText`) and the stack cut
 * down to its frames (its first lines repeat the unscrubbed message). Every
 * other property (Drizzle's `params`, pg's `detail` and `where`) is dropped.
 * Accepts what pino-http hands over too (pino-std-serializers' copy, with
 * the original error under `raw`). A string is scrubbed; other values pass.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  const error = isRecord(value) && isErrorLike(value.raw) ? value.raw : value;
  if (typeof error === "string") return scrubText(error);
  if (!isErrorLike(error)) return error;
  const type =
    typeof error.constructor === "function" && error.constructor.name
      ? error.constructor.name
      : String(error.name ?? "Error");
  const message = scrubText(error.message);
  const serialized: SerializedError = { type, message };
  for (const field of KEPT_ERROR_FIELDS) {
    const kept = error[field];
    if (typeof kept === "number" || (typeof kept === "string" && kept.length <= 64))
      serialized[field] = typeof kept === "string" ? scrubText(kept) : kept;
  }
  if (typeof error.stack === "string") {
    const frames = error.stack.split("\n").filter((line) => /^\s+at /.test(line));
    serialized.stack = [`${type}: ${message}`, ...frames].join("\n");
  }
  if (depth < MAX_CAUSE_DEPTH && error.cause !== undefined) {
    serialized.cause = serializeError(error.cause, depth + 1) as SerializedError | string;
  }
  if (depth < MAX_CAUSE_DEPTH && Array.isArray(error.errors)) {
    serialized.errors = error.errors
      .slice(0, 10)
      .map((inner) => serializeError(inner, depth + 1) as SerializedError | string);
  }
  return serialized;
}

type ErrorLike = Record<string, unknown> & {
  message: string;
  name?: unknown;
  stack?: unknown;
  cause?: unknown;
  errors?: unknown;
};

function isErrorLike(value: unknown): value is ErrorLike {
  return isRecord(value) && typeof value.message === "string";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * How log lines are written (issue 16 §3): `pretty` (one readable line per
 * entry: time, level, message, fields) or `json` (one JSON object per line,
 * for journald, Docker or a log collector). `LOG_FORMAT=auto` picks `pretty`
 * when standard output is a terminal, `json` otherwise.
 */
export function logFormat(setting: Env["LOG_FORMAT"] | undefined, isTTY: boolean): "pretty" | "json" {
  if (setting === "pretty" || setting === "json") return setting;
  return isTTY ? "pretty" : "json";
}

/**
 * A stream writing each pino line as pino-pretty formats it (one line: time,
 * level, message, then the fields), to `destination` or standard output.
 * pino-pretty is loaded only here (CommonJS, so synchronously); undefined when
 * it is not installed, and the lines stay JSON.
 */
function prettyStream(destination: DestinationStream | undefined, colorize: boolean): DestinationStream | undefined {
  let prettify: (line: string) => string;
  try {
    const { prettyFactory } = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
    prettify = prettyFactory({ colorize, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname", singleLine: true });
  } catch {
    return undefined;
  }
  // Synchronous, like pino's own standard output: no line lost when the process exits.
  const out = destination ?? pino.destination({ fd: 1, sync: true });
  return { write: (line: string) => out.write(prettify(line)) };
}

/**
 * The server's logger: level `env.LOG_LEVEL`, no pid/hostname, the redaction
 * above, and `err`/`error` through `serializeError`. `destination` defaults
 * to standard output; tests pass a stream that collects the lines. Lines are
 * readable text or JSON as `logFormat(env.LOG_FORMAT, isTTY)` says (`isTTY`
 * defaults to whether standard output is a terminal); redaction applies to
 * both, before formatting.
 */
export function createLogger(
  env: Pick<Env, "LOG_LEVEL"> & Partial<Pick<Env, "LOG_FORMAT">>,
  destination?: DestinationStream,
  isTTY = process.stdout.isTTY === true,
): Logger {
  const options = {
    level: env.LOG_LEVEL,
    base: undefined,
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: { err: serializeError, error: serializeError },
  };
  const stream =
    logFormat(env.LOG_FORMAT, isTTY) === "pretty" ? (prettyStream(destination, isTTY) ?? destination) : destination;
  return stream ? pino(options, stream) : pino(options);
}

/** Random per process and never written anywhere, so a pseudonym cannot be turned back into an address after a restart. */
const IP_KEY = randomBytes(32);

/**
 * A short pseudonym of an IP address for rate-limit warnings: the same
 * address gives the same 12 characters for as long as the process runs, so
 * an operator can tell one insistent visitor from many, without the address
 * itself (personal data under the GDPR) reaching the logs. A keyed HMAC, not
 * a plain hash: the 2³² IPv4 addresses would be hashed back in seconds.
 */
export function pseudonymizeIp(ip: string): string {
  return createHmac("sha256", IP_KEY).update(ip).digest("base64url").slice(0, 12);
}

/**
 * What better-auth's origin checks log at error level when a visitor sends a
 * redirect, callback or origin of another site (issue 28 §13): the visitor's
 * own text, repeatable at will. These are refusals, not faults: summarised.
 */
const BETTER_AUTH_REFUSALS: [RegExp, string][] = [
  [/^Invalid (callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b/, "adresse de retour d'un autre site"],
  [/^Invalid origin\b/, "origine d'un autre site"],
  [/^Blocked cross-site navigation/, "navigation depuis un autre site"],
];

/**
 * better-auth's `logger` option routing its messages into pino (warn and
 * above), scrubbed: by default it prints to the console, including the
 * Drizzle error of a failed sign-up with the account's e-mail in it. Its
 * refusals of a visitor's URLs go to one summary line a minute
 * (`server/refusal-log.ts`), without the URL.
 */
export function betterAuthLogger(logger: Logger): {
  level: "warn";
  log: (level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]) => void;
} {
  const refusals = createRefusalLog(logger, "better-auth : requêtes refusées");
  return {
    level: "warn",
    log(level, message, ...args) {
      const refusal = BETTER_AUTH_REFUSALS.find(([pattern]) => pattern.test(message));
      if (refusal) return refusals(refusal[1]);
      const err = args.find(isErrorLike);
      logger[level](err ? { err } : {}, `better-auth : ${scrubText(message)}`);
    },
  };
}
