/**
 * Issue 13 §10: failed sign-ins are limited per account and per IP address;
 * successes never count; on PostgreSQL two servers share the counts.
 * Requests go through `auth.handler` with the client-IP header that
 * `server/auth-http.ts` sets from `req.ip`, so each can come from its own address.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tooManyAttemptsMessage } from "#app/remote-support/account.ts";
import { parseEnv } from "./env.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { CLIENT_IP_HEADER, createAuth, type Auth } from "./auth.ts";
import { MEMORY_STORE, type RateLimitStore } from "./rate-limit.ts";

const PUBLIC_URL = "http://127.0.0.1:3999";
const PASSWORD = "le-bon-mot-de-passe";

function newAuth(database: TestDatabase, store: RateLimitStore): Auth {
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL,
    DATA_DIR: database.dataDir,
    BETTER_AUTH_SECRET: "secret-de-test-suffisamment-long-pour-better-auth",
    AUTH_SIGN_IN_LIMIT: "5",
    AUTH_SIGN_IN_WINDOW_S: "900",
    LOG_LEVEL: "silent",
  });
  return createAuth({
    db: database.db,
    env,
    logger: pino({ level: "silent" }),
    secret: env.BETTER_AUTH_SECRET!,
    rateLimits: store,
  });
}

/** One sign-in from `ip`; resolves with the status, Retry-After and the JSON answer. */
async function signIn(auth: Auth, ip: string, email: string, password: string) {
  const response = await auth.handler(
    new Request(`${PUBLIC_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: PUBLIC_URL, [CLIENT_IP_HEADER]: ip },
      body: JSON.stringify({ email, password }),
    }),
  );
  const body = (await response.json()) as { code?: string; message?: string };
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
}

describe.each(DATABASE_KINDS)("failed sign-in limit on %s", (kind) => {
  let database: TestDatabase;
  let store: RateLimitStore;
  let auth: Auth;
  let accounts = 0;
  /** A new account (its own e-mail, so each test starts with no failures counted). */
  async function account(): Promise<string> {
    const email = `limite-${kind}-${++accounts}@exemple.fr`;
    await auth.api.signUpEmail({ body: { name: "Léa Martin", email, password: PASSWORD } });
    return email;
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE;
    auth = newAuth(database, store);
  });
  afterAll(() => database.dispose());

  it("refuses the 6th wrong password for one account, each from a different IP, with 429, Retry-After and a French message", async () => {
    const email = await account();
    const statuses = [];
    for (let i = 1; i <= 5; i++) statuses.push((await signIn(auth, `198.51.100.${i}`, email, "mauvais")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const refused = await signIn(auth, "198.51.100.6", email, "mauvais");
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(840);
    expect(refused.body).toEqual({
      code: "TROP_DE_TENTATIVES",
      message: tooManyAttemptsMessage(Number(refused.retryAfter)),
    });
    expect(refused.body.message).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
    // Even the right password waits: the account is the one under attack.
    expect((await signIn(auth, "198.51.100.7", email, PASSWORD)).status).toBe(429);
  });

  it("refuses the 6th failure from one IP address, whatever the accounts", async () => {
    const statuses = [];
    for (let i = 1; i <= 6; i++) statuses.push((await signIn(auth, "203.0.113.20", await account(), "mauvais")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another address (another visitor behind another connection) is not affected.
    expect((await signIn(auth, "203.0.113.21", await account(), PASSWORD)).status).toBe(200);
  });

  it("never refuses successes: 8 in a row from one IP address", async () => {
    const email = await account();
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await signIn(auth, "192.0.2.50", email, PASSWORD)).status);
    expect(statuses).toEqual(Array(8).fill(200));
  });

  it("does not count successes between failures", async () => {
    const email = await account();
    const statuses = [];
    for (const password of ["x", "x", "x", "x", PASSWORD, PASSWORD, "x", "x"]) {
      statuses.push((await signIn(auth, "192.0.2.60", email, password)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 200, 200, 401, 429]);
  });

  it("counts parallel guesses before their answers", async () => {
    const email = await account();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(auth, `198.18.0.${i + 1}`, email, "mauvais")),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it("limits sign-ups (10 per IP address) and reset requests (3 per IP address), in French", async () => {
    const post = (path: string, ip: string, body: object) =>
      auth.handler(
        new Request(`${PUBLIC_URL}/api/auth${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: PUBLIC_URL, [CLIENT_IP_HEADER]: ip },
          body: JSON.stringify(body),
        }),
      );
    const signUps = [];
    for (let i = 0; i < 11; i++) {
      const body = { name: "Paul Durand", email: `inscription-${kind}-${i}@exemple.fr`, password: PASSWORD };
      signUps.push((await post("/sign-up/email", "192.0.2.70", body)).status);
    }
    expect(signUps).toEqual([...Array(10).fill(200), 429]);
    const resets = [];
    for (let i = 0; i < 4; i++)
      resets.push(
        await post("/request-password-reset", "192.0.2.71", { email: "personne@exemple.fr", redirectTo: PUBLIC_URL }),
      );
    expect(resets.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    expect(((await resets[3]!.json()) as { message: string }).message).toMatch(
      /^Trop de tentatives\. Réessayez dans \d minutes?\.$|^Trop de tentatives\. Réessayez dans une minute\.$/,
    );
    // Another address is not affected.
    expect(
      (await post("/request-password-reset", "192.0.2.72", { email: "personne@exemple.fr", redirectTo: PUBLIC_URL }))
        .status,
    ).toBe(200);
  });

  if (kind === "postgres") {
    it("shares the count between two servers on one database", async () => {
      const other = newAuth(database, store);
      const email = await account();
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await signIn(i % 2 ? other : auth, `198.51.100.${100 + i}`, email, "mauvais")).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    });
  }
});
