/**
 * Issue 13 §10: failed sign-ins are limited per account and per IP address;
 * successes never count; on PostgreSQL two servers share the counts.
 * Requests go through `auth.handler` with the client-IP header that
 * `server/auth-http.ts` sets from `req.ip`, so each can come from its own address.
 *
 * Issue 28 §6: strangers who exhaust the per-account limit do not lock the
 * owner out of a browser (known-device cookie) or an address that signed in
 * to the account before; guesses from those places have their own count.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tooManyAttemptsMessage } from "#app/remote-support/account.ts";
import { parseEnv } from "./env.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { CLIENT_IP_HEADER, createAuth, type Auth } from "./auth.ts";
import { MEMORY_STORE, type RateLimitStore } from "./rate-limit.ts";

/** better-auth's name for our cookie over http (`__Secure-` is added over https). */
const KNOWN_DEVICE_COOKIE_NAME = "better-auth.known_device";

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

/**
 * One sign-in from `ip`, with the known-device cookie's value when given; resolves with the status,
 * Retry-After, the JSON answer and the known-device cookie set (its value and whole Set-Cookie line), if any.
 */
async function signIn(auth: Auth, ip: string, email: string, password: string, knownDevice?: string) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Origin: PUBLIC_URL,
    [CLIENT_IP_HEADER]: ip,
  };
  if (knownDevice) headers.Cookie = `${KNOWN_DEVICE_COOKIE_NAME}=${knownDevice}`;
  const response = await auth.handler(
    new Request(`${PUBLIC_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email, password }),
    }),
  );
  const body = (await response.json()) as { code?: string; message?: string };
  const setCookie = response.headers.getSetCookie().find((line) => line.startsWith(`${KNOWN_DEVICE_COOKIE_NAME}=`));
  const device = setCookie?.slice(KNOWN_DEVICE_COOKIE_NAME.length + 1).split(";")[0];
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body, device, setCookie };
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
    // Even the right password waits from a browser and an address that never signed in: the account is under attack.
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
    for (const password of ["x", "x", "x", "x", PASSWORD, PASSWORD]) {
      statuses.push((await signIn(auth, "192.0.2.60", email, password)).status);
    }
    // Then from addresses of no sign-in (192.0.2.60 is now known to the account and has its own count).
    statuses.push((await signIn(auth, "192.0.2.61", email, "x")).status);
    statuses.push((await signIn(auth, "192.0.2.62", email, "x")).status);
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

  it("lets the right password in from a browser that signed in before, after 5 wrong passwords from 5 IPs (issue 28 §6)", async () => {
    const email = await account();
    const owner = await signIn(auth, "192.0.2.80", email, PASSWORD);
    expect(owner.status).toBe(200);
    for (let i = 1; i <= 5; i++)
      expect((await signIn(auth, `198.51.100.${20 + i}`, email, "mauvais")).status).toBe(401);
    // Spread-out guessing still meets the per-account limit, even with the right password.
    expect((await signIn(auth, "198.51.100.26", email, PASSWORD)).status).toBe(429);
    // The owner's browser, now on another network, is checked as usual.
    expect((await signIn(auth, "203.0.113.80", email, PASSWORD, owner.device)).status).toBe(200);
  });

  it("lets the right password in from an IP address that signed in to the account before, without the cookie", async () => {
    const email = await account();
    expect((await signIn(auth, "192.0.2.90", email, PASSWORD)).status).toBe(200);
    for (let i = 1; i <= 5; i++)
      expect((await signIn(auth, `198.51.100.${30 + i}`, email, "mauvais")).status).toBe(401);
    expect((await signIn(auth, "198.51.100.36", email, PASSWORD)).status).toBe(429);
    expect((await signIn(auth, "192.0.2.90", email, PASSWORD)).status).toBe(200);
  });

  it("limits guesses from a known browser on their own count, leaving the account's untouched", async () => {
    const email = await account();
    const { device } = await signIn(auth, "192.0.2.100", email, PASSWORD);
    const statuses = [];
    for (let i = 1; i <= 6; i++) statuses.push((await signIn(auth, `203.0.113.${100 + i}`, email, "x", device)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signIn(auth, "203.0.113.107", email, PASSWORD, device)).status).toBe(429);
    // Those failures were the browser's: a wrong password from elsewhere is still checked (401, not 429).
    expect((await signIn(auth, "203.0.113.108", email, "x")).status).toBe(401);
  });

  it("takes neither another account's cookie, a forged one, nor another account's address as known", async () => {
    const victim = await account();
    const other = await account();
    const { device } = await signIn(auth, "192.0.2.110", other, PASSWORD);
    for (let i = 1; i <= 5; i++)
      expect((await signIn(auth, `198.51.100.${40 + i}`, victim, "mauvais")).status).toBe(401);
    const forged = `${device!.split(".")[0]}.${"A".repeat(22)}`;
    for (const cookie of [device, forged, "pas-un-cookie"]) {
      expect((await signIn(auth, "198.51.100.46", victim, PASSWORD, cookie)).status).toBe(429);
    }
    expect((await signIn(auth, "192.0.2.110", victim, PASSWORD)).status).toBe(429);
  });

  it("sets the known-device cookie HttpOnly, SameSite=Lax, for a year, without personal data, for several accounts", async () => {
    const first = await account();
    const second = await account();
    expect((await signIn(auth, "192.0.2.120", first, "mauvais")).setCookie).toBeUndefined();
    const one = await signIn(auth, "192.0.2.120", first, PASSWORD);
    expect(one.setCookie).toMatch(/; Max-Age=31536000; .*HttpOnly/i);
    expect(one.setCookie).toMatch(/; SameSite=Lax/i);
    expect(one.setCookie).toMatch(/; Path=\/(;|$)/);
    expect(one.device).toMatch(/^[\w-]{22}\.[\w-]{22}$/);
    // The same browser signed in to a second account keeps its id and both accounts.
    const two = await signIn(auth, "192.0.2.120", second, PASSWORD, one.device);
    expect(two.device!.split(".")).toEqual([one.device!.split(".")[0], expect.any(String), one.device!.split(".")[1]]);
    // With the failure above, the 5th for the account.
    for (let i = 1; i <= 4; i++)
      expect((await signIn(auth, `198.51.100.${50 + i}`, first, "mauvais")).status).toBe(401);
    expect((await signIn(auth, "198.51.100.55", first, PASSWORD)).status).toBe(429);
    expect((await signIn(auth, "203.0.113.120", first, PASSWORD, two.device)).status).toBe(200);
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

    it("knows places on a second or restarted server, and stores neither address nor cookie", async () => {
      const email = await account();
      const owner = await signIn(auth, "192.0.2.130", email, PASSWORD);
      const other = newAuth(database, store);
      for (let i = 1; i <= 5; i++) expect((await signIn(other, `198.51.100.${110 + i}`, email, "x")).status).toBe(401);
      expect((await signIn(other, "198.51.100.116", email, PASSWORD)).status).toBe(429);
      expect((await signIn(other, "192.0.2.130", email, PASSWORD)).status).toBe(200);
      expect((await signIn(other, "203.0.113.130", email, PASSWORD, owner.device)).status).toBe(200);
      // The known places' facts and counts (the per-IP count is keyed by the address, as before: decision 005).
      const { rows } = await database.pool!.query<{ key: string }>(
        "select key from rate_limits where key like 'sign-in-known-%'",
      );
      expect(rows.length).toBeGreaterThan(0);
      const [deviceId, tag] = owner.device!.split(".");
      for (const secret of ["192.0.2.130", deviceId!, tag!, email]) {
        expect(rows.filter((row) => row.key.includes(secret))).toEqual([]);
      }
    });
  }
});
