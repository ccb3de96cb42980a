/**
 * Helpers of the remote-support benchmarks (`remote-support.ts`,
 * `remote-control.ts`): accounts written before the server starts (the
 * embedded database has one process at a time), API calls with a sign-in
 * cookie, signed-in Chromium pages, in-page timing, and percentiles.
 */
import { type Browser, type Page } from "@playwright/test";
import { eq, inArray } from "drizzle-orm";
import { pino } from "pino";
import { parseEnv } from "#server/env.ts";
import { openDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { createAuth } from "#server/auth.ts";

export const SECRET = "secret-de-banc-d-essai-suffisamment-long-pour-better-auth";
export const PASSWORD = "motdepasse-banc-essai";

export type Account = { email: string; name: string; technician: boolean; cookie: string };

/** Percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;
/** "median …, p95 …, max … (n=…)" of durations in ms. */
export const summary = (values: number[]) =>
  `median ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))} (n=${values.length})`;

/** Creates the accounts with better-auth's sign-up, directly in the database, before the server starts. */
export async function seedAccounts(
  options: { dataDir: string; databaseUrl?: string },
  accounts: Omit<Account, "cookie">[],
) {
  const env = parseEnv({
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    // The server's engine (EMBEDDED_DATABASE=pglite reaches the server process too): accounts where it reads them.
    EMBEDDED_DATABASE: process.env.EMBEDDED_DATABASE,
    BETTER_AUTH_SECRET: SECRET,
    LOG_LEVEL: "silent",
  });
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    embedded: env.EMBEDDED_DATABASE,
    lockRetries: 0,
  });
  try {
    const auth = createAuth({ db: database.db, env, logger: pino({ level: "silent" }), secret: SECRET });
    for (const account of accounts)
      await auth.api.signUpEmail({ body: { name: account.name, email: account.email, password: PASSWORD } });
    const technicians = accounts.filter((account) => account.technician).map((account) => account.email);
    if (technicians.length)
      await database.db.update(users).set(roleFields("technician")).where(inArray(users.email, technicians));
    const [check] = await database.db.select().from(users).where(eq(users.email, accounts[0]!.email));
    if (!check) throw new Error("comptes non créés");
  } finally {
    await database.close();
  }
}

/** A JSON call with `cookie`; throws on a non-2xx answer. */
export async function api<T>(url: string, cookie: string, pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: url },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** Chromium flags of the e2e tests: fake screen picker and devices, loopback WebRTC. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--use-fake-ui-for-media-stream",
  "--use-fake-device-for-media-stream",
  "--allow-loopback-in-peer-connection",
];

/** /soft-assist in a new context signed in as `account` (its cookie copied in); `init` runs before each page's scripts. */
export async function signedInPage(browser: Browser, url: string, account: Account, init?: () => void): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, locale: "fr-FR" });
  if (init) await context.addInitScript(init);
  await context.addCookies(
    account.cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), url };
    }),
  );
  const page = await context.newPage();
  await page.goto("/soft-assist");
  return page;
}

/** Resolves, in the page, with the time (ms since the epoch, sub-ms) `text` first appears in the document. */
export function whenText(page: Page, text: string): Promise<number> {
  return page.evaluate(
    (wanted) =>
      new Promise<number>((resolve) => {
        const now = () => performance.timeOrigin + performance.now();
        if (document.body.textContent?.includes(wanted)) return resolve(now());
        const observer = new MutationObserver(() => {
          if (!document.body.textContent?.includes(wanted)) return;
          observer.disconnect();
          resolve(now());
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
    text,
  );
}

/** Resolves, in the page, with the time (ms since the epoch) of the next click anywhere. */
export function nextClick(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        document.addEventListener("click", () => resolve(performance.timeOrigin + performance.now()), {
          capture: true,
          once: true,
        }),
      ),
  );
}
