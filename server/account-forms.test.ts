/**
 * Issue 16 §1: the services behind /soft-assist's loader and action, on a
 * real better-auth over PGlite. The signed-out forms sign in, create an
 * account and ask for a reset through the same better-auth layers as
 * `/api/auth` (French refusals, no account enumeration, per-IP limits), a
 * cross-site post is refused, and the loader's view follows the cookie and
 * the role.
 */
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "#database/schema.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createAccountServices } from "./account-forms.ts";
import { roleFields } from "./access.ts";
import { createAuth } from "./auth.ts";
import { parseEnv } from "./env.ts";
import { MEMORY_STORE } from "./rate-limit.ts";
import { CROSS_SITE_MESSAGE } from "./security.ts";

const PUBLIC_URL = "http://127.0.0.1:3998";
const PASSWORD = "le-bon-mot-de-passe";
const SESSION: SessionView = {
  id: "s1",
  code: "ABC123",
  status: "disconnected",
  userId: "u1",
  technicianId: null,
  technicianFirstName: null,
  startTime: null,
  endTime: null,
  durationSeconds: null,
  createdAt: "2026-11-23T10:00:00.000Z",
  userName: "Léa Martin",
  userEmail: "lea@exemple.fr",
  origin: "site",
};

let database: TestDatabase;
let services: ReturnType<typeof createAccountServices>;

/** A post of the page's form, from the page itself unless `headers` say otherwise. */
function pagePost(headers: Record<string, string> = {}): Request {
  return new Request(`${PUBLIC_URL}/soft-assist`, { method: "POST", headers: { Origin: PUBLIC_URL, ...headers } });
}

/** The Cookie header a browser sends back after `setCookie`. */
function cookieOf(setCookie: string[]): string {
  return setCookie.map((cookie) => cookie.split(";")[0]).join("; ");
}

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL,
    DATA_DIR: database.dataDir,
    BETTER_AUTH_SECRET: "secret-de-test-suffisamment-long-pour-better-auth",
    AUTH_SIGN_IN_LIMIT: "3",
    LOG_LEVEL: "silent",
  });
  const logger = pino({ level: "silent" });
  const auth = createAuth({ db: database.db, env, logger, secret: env.BETTER_AUTH_SECRET!, rateLimits: MEMORY_STORE });
  services = createAccountServices({
    auth,
    logger,
    publicUrl: PUBLIC_URL,
    sessions: {
      mine: async () => ({ ok: true, sessions: [SESSION] }),
      active: async () => ({ ok: true, session: null }),
      history: async () => ({ ok: true, sessions: [SESSION] }),
    },
  });
});

afterAll(() => database?.dispose());

describe("the signed-out forms of /soft-assist", () => {
  it("create an account, which is then signed in: the view is the customer screen with its sessions", async () => {
    const form = { intent: "sign-up", name: "Léa Martin", email: "lea@exemple.fr", password: PASSWORD } as const;
    const result = await services.submit(form, pagePost(), { ip: "198.51.100.1" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const cookie = cookieOf(result.setCookie);
    expect(cookie).not.toBe("");
    const { view } = await services.areaView(new Request(`${PUBLIC_URL}/soft-assist`, { headers: { cookie } }));
    expect(view).toMatchObject({ user: { name: "Léa Martin", isTechnician: false }, screen: "customer" });
    expect(view.user && "sessions" in view ? view.sessions : []).toEqual([SESSION]);
  });

  it("sign in, and a technician's view is the dashboard", async () => {
    await database.db.update(users).set(roleFields("technician")).where(eq(users.email, "lea@exemple.fr"));
    const result = await services.submit(
      { intent: "sign-in", email: "lea@exemple.fr", password: PASSWORD },
      pagePost(),
      { ip: "198.51.100.2" },
    );
    if (!result.ok) throw new Error(result.message);
    const cookie = cookieOf(result.setCookie);
    const { view } = await services.areaView(new Request(`${PUBLIC_URL}/soft-assist`, { headers: { cookie } }));
    expect(view).toMatchObject({ screen: "technician", active: null, history: [SESSION] });
    await database.db.update(users).set(roleFields("customer")).where(eq(users.email, "lea@exemple.fr"));
  });

  it("answer a wrong password in French, then the per-IP limit with its wait", async () => {
    const wrong = { intent: "sign-in", email: "lea@exemple.fr", password: "mauvais-mot-de-passe" } as const;
    const first = await services.submit(wrong, pagePost(), { ip: "198.51.100.3" });
    expect(first).toEqual({ ok: false, status: 401, message: "E-mail ou mot de passe incorrect." });
    let last = first;
    for (let attempt = 0; attempt < 5; attempt++)
      last = await services.submit(wrong, pagePost(), { ip: "198.51.100.3" });
    expect(last).toMatchObject({ ok: false, status: 429, message: expect.stringMatching(/^Trop de tentatives\./) });
  });

  it("refuse an existing address at sign-up, in French", async () => {
    const form = { intent: "sign-up", name: "Autre", email: "lea@exemple.fr", password: PASSWORD } as const;
    const result = await services.submit(form, pagePost(), { ip: "198.51.100.4" });
    expect(result).toMatchObject({ ok: false, message: "Un compte existe déjà avec cette adresse e-mail." });
  });

  it("answer a reset request the same way whether the address has an account or not", async () => {
    for (const email of ["lea@exemple.fr", "personne@exemple.fr"]) {
      const result = await services.submit({ intent: "forgot", email }, pagePost(), { ip: "198.51.100.5" });
      expect(result).toEqual({ ok: true, setCookie: [] });
    }
  });

  it("refuse a post from another site before better-auth sees it", async () => {
    const result = await services.submit(
      { intent: "sign-in", email: "lea@exemple.fr", password: PASSWORD },
      pagePost({ Origin: "https://evil.example" }),
      { ip: "198.51.100.6" },
    );
    expect(result).toEqual({ ok: false, status: 403, message: CROSS_SITE_MESSAGE });
  });

  it("see no account without a cookie, or with a made-up one", async () => {
    for (const headers of [new Headers(), new Headers({ cookie: "better-auth.session_token=invente" })]) {
      const { view } = await services.areaView(new Request(`${PUBLIC_URL}/soft-assist`, { headers }));
      expect(view).toEqual({ user: null });
    }
  });
});
