/**
 * The part of the environment route modules read: `PUBLIC_URL` (canonical
 * URLs, robots.txt, the sitemap), and what its default is made of (`HOST`,
 * `PORT`). Loaders read it at build time, when pages are pre-rendered, as
 * well as in the server.
 *
 * These fields belong to the one environment schema, `server/env.ts`, which
 * adds the server's own variables (mail, database, ICE, AI…) to them; they
 * live here because `app/` imports nothing from `server/` (issue 14). So do
 * `ConfigError` and `parseVariables`, which both parsers share.
 *
 * `getPublicEnv` is the whitelisted subset that may reach the browser;
 * nothing else from the environment is ever serialised into a page.
 */
import { z } from "zod";

/** The fields of the environment schema route modules need; `server/env.ts` spreads them into its own. */
export const PUBLIC_ENV_FIELDS = {
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
    .optional(),
};

/** Addresses that mean "every interface": a browser cannot open them, `localhost` stands in. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]", "*"]);

/**
 * `PUBLIC_URL` when unset (issue 16 §3): `http://<HOST>:<PORT>`, with
 * `localhost` for a wildcard HOST, so `PORT=8080 npm start` links to 8080.
 */
export function defaultPublicUrl(host: string, port: number): string {
  const name = WILDCARD_HOSTS.has(host)
    ? "localhost"
    : host.includes(":") && !host.startsWith("[")
      ? `[${host}]`
      : host;
  return new URL(`http://${name}:${port}`).origin;
}

/** The schema's last step: `env` with `PUBLIC_URL` always set (given, else `defaultPublicUrl`). */
export function withPublicUrl<T extends { HOST: string; PORT: number; PUBLIC_URL?: string }>(
  env: T,
): T & { PUBLIC_URL: string } {
  return { ...env, PUBLIC_URL: env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT) };
}

/** Raised by `parseVariables`; `issues` lists `{ variable, message }` per bad value. */
export class ConfigError extends Error {
  readonly issues: { variable: string; message: string }[];
  constructor(issues: { variable: string; message: string }[]) {
    super("Configuration invalide :\n" + issues.map((issue) => `  - ${issue.variable} : ${issue.message}`).join("\n"));
    this.name = "ConfigError";
    this.issues = issues;
  }
}

/**
 * Validates environment variables `source` with `schema`. Empty strings
 * count as unset, so `PORT=` in a .env file falls back to the default.
 * @throws ConfigError naming every invalid variable with a French
 *   explanation (never a raw zod error).
 */
export function parseVariables<T>(schema: z.ZodType<T>, source: Record<string, string | undefined>): T {
  const defined = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = schema.safeParse(defined);
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

/** The subset of the environment that the browser may see. */
export type PublicEnv = { PUBLIC_URL: string };

const PublicEnvSchema = z
  .object(PUBLIC_ENV_FIELDS)
  .transform((env): PublicEnv => ({ PUBLIC_URL: withPublicUrl(env).PUBLIC_URL }));

/** The public subset of `source` (default `process.env`), the same value `server/env.ts` gives. @throws ConfigError */
export function parsePublicEnv(source: Record<string, string | undefined> = process.env): PublicEnv {
  return parseVariables(PublicEnvSchema, source);
}

let cached: PublicEnv | undefined;

/** Whitelisted public subset of this process's environment (parsed once), safe to serialise into HTML. @throws ConfigError */
export function getPublicEnv(): PublicEnv {
  cached ??= parsePublicEnv();
  return cached;
}
