/**
 * The one place where configuration is read and validated (zod), at start:
 * the one schema of the whole environment (issue 14 moved it out of `app/`,
 * which keeps only the fields route modules read, `PUBLIC_ENV_FIELDS` in
 * `app/utils/env.server.ts`, spread in here).
 *
 * Every variable is documented in `.env.example` and docs/running-the-shop.md (Configuration).
 * `parseEnv` never throws a raw zod error: `ConfigError.message` names each
 * bad variable with a French explanation, so `server/index.ts` can print it
 * and stop. What each service makes of its variables lives next to it
 * (`outbox/transports.ts`, `remote-support/ice.ts`, `assistant/config.ts`…).
 */
import { isIP } from "node:net";
import { z } from "zod";
import { RETENTION } from "#app/config/retention.ts";
import { ConfigError, PUBLIC_ENV_FIELDS, parseVariables, withPublicUrl } from "#app/utils/env.server.ts";

export { ConfigError };

const positiveInt = (fallback: number) =>
  z.coerce
    .number({ error: "doit être un nombre" })
    .int({ error: "doit être un entier" })
    .min(1, { error: "doit être au moins 1" })
    .default(fallback);
const optionalText = z.string().trim().min(1).optional();
/** A comma-separated list of URLs each matching `scheme`; `none` is an empty list (an empty variable means "unset"). */
const urlList = (scheme: RegExp, error: string) =>
  z
    .string()
    .transform((value) =>
      value.trim() === "none"
        ? []
        : value
            .split(",")
            .map((url) => url.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(scheme, { error }).max(512)));

/** proxy-addr's names for address ranges, accepted in `TRUST_PROXY` beside addresses and CIDR networks. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One `TRUST_PROXY` list item: a range name, an IPv4/IPv6 address, or a network `address/prefix`. */
function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = "", prefix, ...rest] = item.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * The widest networks a proxy may be trusted in (issue 28 §12): 10.0.0.0/8 in IPv4 and fc00::/7
 * (`uniquelocal`) in IPv6 are the widest private ranges. A wider one (`0.0.0.0/0`, `::/0`, or
 * `::ffff:0:0/96`, every IPv4 address written as IPv6) trusts the whole Internet, as `true` did.
 */
const WIDEST_PROXY_PREFIX = { 4: 8, 6: 7, mappedIpv4: 96 + 8 } as const;

/** Whether a valid `TRUST_PROXY` item is a network so wide that any visitor would be trusted as a proxy. */
function trustsEveryone(item: string): boolean {
  const [address = "", prefix] = item.split("/");
  if (prefix === undefined) return false;
  const bits = Number(prefix);
  if (isIP(address) === 4) return bits < WIDEST_PROXY_PREFIX[4];
  if (/^::ffff:/i.test(address) && bits >= 96) return bits < WIDEST_PROXY_PREFIX.mappedIpv4;
  return bits < WIDEST_PROXY_PREFIX[6];
}

/** Most proxies a request goes through before the server (CDN, load balancer, reverse proxy). */
const MAX_PROXY_HOPS = 3;

const TRUSTS_EVERYONE =
  "reviendrait à croire l'en-tête X-Forwarded-For que chaque visiteur écrit lui-même, et les limites par " +
  "adresse IP seraient contournées. Écrivez loopback (ou 1) derrière nginx ou Caddy sur la même machine, ou " +
  "l'adresse du proxy (ex. 192.0.2.10, ou un réseau privé comme 10.0.0.0/8) s'il est sur une autre machine";

/**
 * `TRUST_PROXY` (issue 13 §1), in the forms Express's `trust proxy` setting takes:
 * `false` (default: the socket's address is the visitor's), a hop count (an
 * integer: how many proxies stand in front), or a comma-separated list of the
 * proxies' addresses, CIDR networks, `loopback`, `linklocal` or `uniquelocal`.
 * Output: `false | number | string[]`, passed as is to `app.set("trust proxy", …)`.
 *
 * `true` is refused: Express would then take the leftmost X-Forwarded-For
 * address, which every visitor writes themselves, and every per-IP limit
 * would be bypassed. So are the values that mean the same (issue 28 §12): a
 * hop count over `MAX_PROXY_HOPS`, and networks wider than the widest private
 * range (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`).
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (value === "false") return false;
    if (value === "true") {
      context.addIssue({
        code: "custom",
        message:
          "ne peut plus valoir true : Express croirait alors la première adresse de l'en-tête X-Forwarded-For, " +
          "que chaque visiteur écrit lui-même, et les limites par adresse IP seraient contournées. " +
          "Écrivez loopback (ou 1) derrière nginx ou Caddy sur la même machine, ou l'adresse du proxy " +
          "(ex. 192.0.2.10, ou un réseau 10.0.0.0/8) s'il est sur une autre machine",
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      if (Number(value) <= MAX_PROXY_HOPS) return Number(value);
      context.addIssue({
        code: "custom",
        message: `${value} proxys ${TRUSTS_EVERYONE} (au plus ${MAX_PROXY_HOPS} proxys)`,
      });
      return z.NEVER;
    }
    const items = value.split(",").map((item) => item.trim());
    const bad = items.filter((item) => !isProxyAddress(item));
    if (bad.length > 0) {
      context.addIssue({
        code: "custom",
        message:
          `${bad.map((item) => `« ${item} »`).join(", ")} : attendu false, un nombre de proxys (ex. 1), ` +
          "ou des adresses IP, réseaux CIDR, loopback, linklocal ou uniquelocal séparés par des virgules",
      });
      return z.NEVER;
    }
    const everyone = items.filter(trustsEveryone);
    if (everyone.length > 0) {
      context.addIssue({
        code: "custom",
        message: `${everyone.map((item) => `« ${item} »`).join(", ")} contient tout Internet : ${TRUSTS_EVERYONE}`,
      });
      return z.NEVER;
    }
    return items;
  })
  .default(false);

/** The e-mail API transport (spec §7) needs all of these once one is set. */
const EMAILJS_REQUIRED = [
  "EMAILJS_SERVICE_ID",
  "EMAILJS_TEMPLATE_CONTACT",
  "EMAILJS_TEMPLATE_QUOTE",
  "EMAILJS_PUBLIC_KEY",
] as const;

const EnvSchema = z
  .object({
    NODE_ENV: z
      .enum(["production", "development", "test"], { error: "doit valoir production, development ou test" })
      .default("production"),
    ...PUBLIC_ENV_FIELDS,
    DATA_DIR: z.string().trim().min(1).default("./data"),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "doit valoir fatal, error, warn, info, debug, trace ou silent",
      })
      .default("info"),
    // Issue 16 §3: readable lines in a terminal (auto: when standard output is a TTY), else one JSON object a line.
    LOG_FORMAT: z.enum(["auto", "pretty", "json"], { error: "doit valoir auto, pretty ou json" }).default("auto"),
    TRUST_PROXY: trustProxy,
    SHUTDOWN_TIMEOUT_MS: z.coerce
      .number({ error: "doit être un nombre" })
      .int({ error: "doit être un entier" })
      .min(0, { error: "doit être positif" })
      .default(10_000),

    // Database (issue 4): an embedded one in DATA_DIR unless a PostgreSQL server is given.
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: "doit être une URL postgres://utilisateur:motdepasse@hôte:port/base" })
      .optional(),
    // Issue 16 §2: which embedded database, without DATABASE_URL: PostgreSQL started by the server (DATA_DIR/postgres)
    // or PGlite in the process (DATA_DIR/pglite, about 300 MB more memory).
    // Default: postgres, but pglite under NODE_ENV=test (Vitest's per-test databases open in a fraction of a second).
    EMBEDDED_DATABASE: z.enum(["postgres", "pglite"], { error: "doit valoir postgres ou pglite" }).optional(),

    // Mail (issue 4). SMTP wins over the e-mail API; with neither, mails are written as .eml files.
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "doit être une URL smtp:// ou smtps://" }).optional(),
    MAIL_FROM: optionalText,
    // Issue 29: unset, the shop's e-mail of « Boutique » (the current identity) at the time of each mail.
    SHOP_EMAIL: z.email({ error: "doit être une adresse e-mail" }).optional(),
    EMAILJS_SERVICE_ID: optionalText,
    EMAILJS_TEMPLATE_CONTACT: optionalText,
    EMAILJS_TEMPLATE_QUOTE: optionalText,
    EMAILJS_PUBLIC_KEY: optionalText,
    EMAILJS_PRIVATE_KEY: optionalText,
    EMAILJS_API_URL: z
      .url({ protocol: /^https?$/, error: "doit être une URL http(s)" })
      .transform((value) => value.replace(/\/+$/, ""))
      .default("https://api.emailjs.com"),

    // Forms (issue 4): accepted requests per visitor IP and window.
    FORM_RATE_LIMIT: positiveInt(5),
    FORM_RATE_WINDOW_S: positiveInt(900),

    // Accounts (issue 5). Without a secret, one is generated into DATA_DIR/auth-secret.
    BETTER_AUTH_SECRET: z.string().trim().min(32, { error: "doit contenir au moins 32 caractères" }).optional(),
    // Failed sign-ins allowed per account and per IP address in a window of AUTH_SIGN_IN_WINDOW_S seconds (issue 13 §10).
    AUTH_SIGN_IN_LIMIT: positiveInt(5),
    AUTH_SIGN_IN_WINDOW_S: positiveInt(900),

    // Remote support over WebRTC (issue 6). Comma-separated lists; ICE_STUN_URLS=none means no STUN server.
    ICE_STUN_URLS: urlList(/^stuns?:/, "doit être une liste d'URL stun: ou stuns: séparées par des virgules").prefault(
      "stun:stun.l.google.com:19302,stun:stun1.l.google.com:19302",
    ),
    TURN_URLS: urlList(/^turns?:/, "doit être une liste d'URL turn: ou turns: séparées par des virgules").prefault(
      "none",
    ),
    TURN_SECRET: z.string().trim().min(16, { error: "doit contenir au moins 16 caractères" }).optional(),
    TURN_TTL_S: positiveInt(86_400),
    // Issue 13 §4: a connected session whose two participants are both gone this long (seconds) is ended by the server.
    SESSION_ABANDON_S: positiveInt(120),

    // Issue 13 §8: session codes expire unused after SESSION_CODE_TTL_S seconds; per account, failed joins, all
    // joins and new sessions are limited per window (seconds), shared by server processes with DATABASE_URL.
    SESSION_CODE_TTL_S: positiveInt(1800),
    SESSION_JOIN_FAILURE_LIMIT: positiveInt(10),
    SESSION_JOIN_FAILURE_WINDOW_S: positiveInt(600),
    SESSION_JOIN_LIMIT: positiveInt(60),
    SESSION_JOIN_WINDOW_S: positiveInt(3600),
    SESSION_CREATE_LIMIT: positiveInt(10),
    SESSION_CREATE_WINDOW_S: positiveInt(600),
    // Issue 28 §7: per account, calls addressed to a session by code answered « Session non trouvée », per window (s).
    SESSION_LOOKUP_FAILURE_LIMIT: positiveInt(30),
    SESSION_LOOKUP_FAILURE_WINDOW_S: positiveInt(600),
    // Issue 26: sessions the desktop app starts without an account, per IP address and window (seconds).
    SESSION_APP_CREATE_LIMIT: positiveInt(5),
    SESSION_APP_CREATE_WINDOW_S: positiveInt(3600),

    // The assistant (issue 7): any OpenAI-compatible server. Neither a key nor a base URL: the offline assistant.
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: z
      .url({ protocol: /^https?$/, error: "doit être une URL http(s), ex. http://127.0.0.1:11434/v1" })
      .optional(),
    AI_MODEL: z.string().trim().min(1).max(200).default("gpt-4-turbo-preview"),
    AI_STREAM: z
      .enum(["true", "false"], { error: "doit valoir true ou false" })
      .transform((value) => value === "true")
      .default(true),
    AI_TIMEOUT_MS: positiveInt(60_000),
    AI_RATE_LIMIT: positiveInt(20),
    AI_RATE_WINDOW_S: positiveInt(600),

    // Outbox worker (issue 4), in milliseconds.
    OUTBOX_POLL_MS: positiveInt(5_000),
    OUTBOX_RETRY_BASE_MS: positiveInt(10_000),
    OUTBOX_RETRY_MAX_MS: positiveInt(900_000),

    // Retention (issue 13 §11): the server's purges delete older data. Defaults from app/config/retention.ts,
    // the periods the legal notices state: change them there (and rebuild) to change the policy for good.
    RETENTION_REQUESTS_DAYS: positiveInt(RETENTION.requestDays),
    RETENTION_SENT_MAIL_DAYS: positiveInt(RETENTION.sentMailDays),
    RETENTION_SESSIONS_DAYS: positiveInt(RETENTION.sessionDays),
    RETENTION_ASSISTANT_DAYS: positiveInt(RETENTION.assistantInactiveDays),
    RETENTION_APPOINTMENTS_DAYS: positiveInt(RETENTION.appointmentDays),
    RETENTION_REPAIRS_DAYS: positiveInt(RETENTION.repairTicketDays),
    RETENTION_SIGNALING_HOURS: positiveInt(RETENTION.signalingHours),
    RETENTION_INTERVAL_HOURS: positiveInt(6),
    RETENTION_BATCH_SIZE: positiveInt(500),

    // Backups (issue 29): one a night at BACKUP_HOUR (the shop's time, Europe/Paris) into BACKUP_DIR (default
    // DATA_DIR/backups), kept BACKUP_KEEP_DAYS days. auto: on for the embedded database, off with DATABASE_URL.
    BACKUP_NIGHTLY: z.enum(["auto", "true", "false"], { error: "doit valoir auto, true ou false" }).default("auto"),
    BACKUP_HOUR: z.coerce
      .number({ error: "doit être un nombre" })
      .int({ error: "doit être une heure entière, de 0 à 23" })
      .min(0, { error: "doit être une heure de 0 à 23" })
      .max(23, { error: "doit être une heure de 0 à 23" })
      .default(3),
    BACKUP_KEEP_DAYS: positiveInt(14),
    BACKUP_DIR: z.string().trim().min(1, { error: "ne doit pas être vide" }).optional(),
  })
  .superRefine((env, context) => {
    if (env.TURN_URLS.length > 0 && !env.TURN_SECRET) {
      context.addIssue({ code: "custom", path: ["TURN_SECRET"], message: "requis quand TURN_URLS est défini" });
    }
    const emailjsSet = EMAILJS_REQUIRED.filter((name) => env[name] !== undefined);
    if (emailjsSet.length > 0 && emailjsSet.length < EMAILJS_REQUIRED.length) {
      for (const name of EMAILJS_REQUIRED) {
        if (env[name] === undefined) {
          context.addIssue({
            code: "custom",
            path: [name],
            message: "requis dès qu'une variable EMAILJS_* est définie",
          });
        }
      }
    }
  })
  .transform((env) => ({
    ...withPublicUrl(env),
    EMBEDDED_DATABASE: env.EMBEDDED_DATABASE ?? (env.NODE_ENV === "test" ? "pglite" : "postgres"),
  }));

export type Env = z.infer<typeof EnvSchema>;

/**
 * Validates a set of environment variables (default `process.env`); empty
 * values count as unset.
 * @throws ConfigError naming every invalid variable.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  return parseVariables(EnvSchema, source);
}
