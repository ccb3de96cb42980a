/**
 * The one place where configuration is read and validated (zod), at start.
 *
 * Every variable is documented in `.env.example`. `parseEnv` never throws a
 * raw zod error: `ConfigError.message` names each bad variable with a French
 * explanation, so `server/index.ts` can print it and stop.
 *
 * `getPublicEnv` is the whitelisted subset that may reach the browser; nothing
 * else from here is ever serialised into a page.
 */
import { z } from "zod";

const EnvSchema = z.object({
  NODE_ENV: z
    .enum(["production", "development", "test"], { error: "doit valoir production, development ou test" })
    .default("production"),
  PORT: z.coerce
    .number({ error: "doit être un nombre" })
    .int({ error: "doit être un entier" })
    .min(0, { error: "doit être compris entre 0 et 65535" })
    .max(65535, { error: "doit être compris entre 0 et 65535" })
    .default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "doit être une URL http(s) complète, ex. https://www.exemple.fr" })
    .transform((value) => new URL(value).origin)
    .default("http://localhost:3000"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "doit valoir fatal, error, warn, info, debug, trace ou silent",
    })
    .default("info"),
  TRUST_PROXY: z
    .enum(["true", "false"], { error: "doit valoir true ou false" })
    .transform((value) => value === "true")
    .default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: "doit être un nombre" })
    .int({ error: "doit être un entier" })
    .min(0, { error: "doit être positif" })
    .default(10_000),
});

export type Env = z.infer<typeof EnvSchema>;

/** The subset of the environment that the browser may see. */
export type PublicEnv = { PUBLIC_URL: string };

/** Raised by `parseEnv`; `issues` lists `{ variable, message }` per bad value. */
export class ConfigError extends Error {
  readonly issues: { variable: string; message: string }[];
  constructor(issues: { variable: string; message: string }[]) {
    super(
      "Configuration invalide :\n" +
        issues.map((issue) => `  - ${issue.variable} : ${issue.message}`).join("\n"),
    );
    this.name = "ConfigError";
    this.issues = issues;
  }
}

/**
 * Validates a set of environment variables (default `process.env`).
 * @throws ConfigError naming every invalid variable.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as "unset", so `PORT=` in a .env file falls back to the default.
  const defined = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(defined);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "?"),
        message: issue.message,
      })),
    );
  }
  return result.data;
}

let cached: Env | undefined;

/** The validated environment of this process (parsed once). @throws ConfigError */
export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Whitelisted public subset, safe to serialise into HTML. */
export function getPublicEnv(env: Env = getEnv()): PublicEnv {
  return { PUBLIC_URL: env.PUBLIC_URL };
}
