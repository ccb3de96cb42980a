/**
 * Issue 28 §7: nobody signed in can tell whether a session code is in use. On
 * every `/api/sessions/:code/…` route, a session the caller takes no part in
 * is answered exactly like an unused code (and so is a signal over
 * Socket.IO); such answers are counted per account, and past
 * `lookupFailures` every code-addressed call of that account is refused with
 * 429 until the window ends. With the server's default limits, counted in the
 * `rate_limits` table on PostgreSQL and in memory on PGlite, as
 * `server/services.ts` wires them.
 */
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SESSION_MESSAGES, type SignalAck, type SignalData } from "#app/remote-support/protocol.ts";
import { MEMORY_STORE } from "#server/rate-limit.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccount,
  startRemoteSupportServer,
  TEST_SESSION_OPTIONS,
  type RemoteSupportServer,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { DEFAULT_SESSION_LIMITS } from "./limits.ts";
import { generateSessionCode } from "./sessions.ts";
import { withRealWait } from "./http.ts";

const { lookupFailures } = DEFAULT_SESSION_LIMITS;
const NOT_FOUND = { status: 404, body: { message: SESSION_MESSAGES.notFound } };

/** Every route addressed by code, with a valid body where it takes one. */
const CODE_ROUTES: { method: "get" | "post"; path: (code: string) => string; body?: object }[] = [
  { method: "get", path: (code) => `/api/sessions/${code}/device` },
  { method: "get", path: (code) => `/api/sessions/${code}/events` },
  { method: "post", path: (code) => `/api/sessions/${code}/events`, body: { kind: "chat", text: "Bonjour" } },
  { method: "post", path: (code) => `/api/sessions/${code}/events`, body: { kind: "sharing-started" } },
  { method: "post", path: (code) => `/api/sessions/${code}/events`, body: { kind: "control-on" } },
  { method: "get", path: (code) => `/api/sessions/${code}/ice-servers` },
  { method: "get", path: (code) => `/api/sessions/${code}/conversation` },
  { method: "post", path: (code) => `/api/sessions/${code}/pairing` },
  { method: "post", path: (code) => `/api/sessions/${code}/consent`, body: { allowed: true } },
  {
    method: "post",
    path: (code) => `/api/sessions/${code}/surface`,
    body: { displaySurface: "monitor", width: 1280, height: 720 },
  },
  { method: "post", path: (code) => `/api/sessions/${code}/disconnect` },
];

describe.each(DATABASE_KINDS)("session codes looked up by someone else on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accountCount = 0;
  const opened: TestSocket[] = [];

  /** A new account per test: the limit is per account and the store outlives tests. */
  const account = (technician: boolean) =>
    createAccount(server, database, technician ? "technician" : "customer", technician, `-code-${++accountCount}`);
  const call = (who: TestAccount, method: "get" | "post", path: string, body?: object) => {
    const pending = request(server.url)[method](path).set("Cookie", who.cookie);
    return body ? pending.send(body) : pending;
  };
  /** A customer's session joined by a technician (both new accounts). */
  const liveSession = async () => {
    const customer = await account(false);
    const technician = await account(true);
    const created = await call(customer, "post", "/api/sessions", {});
    const code: string = created.body.session.code;
    expect((await call(technician, "post", "/api/sessions/join", { code })).status).toBe(200);
    return { customer, technician, code };
  };
  const answer = (response: { status: number; body: unknown }) => ({ status: response.status, body: response.body });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database, {
      sessionOptions: {
        ...TEST_SESSION_OPTIONS,
        rateLimits: database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE,
        limits: { ...TEST_SESSION_OPTIONS.limits, lookupFailures },
      },
    });
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("answers someone else's live session exactly like an unused code, on every route and over Socket.IO", async () => {
    const { code } = await liveSession();
    let unused = generateSessionCode();
    while (unused === code) unused = generateSessionCode();

    for (const prober of [await account(false), await account(true)]) {
      for (const route of CODE_ROUTES) {
        const live = await call(prober, route.method, route.path(code), route.body);
        const free = await call(prober, route.method, route.path(unused), route.body);
        const name = `${prober.isTechnician ? "technician" : "customer"} ${route.method} ${route.path(":code")}`;
        expect(answer(live), name).toEqual(NOT_FOUND);
        expect(answer(free), name).toEqual(NOT_FOUND);
      }
    }

    // A technician with reports open: another technician's session reads like an unused code too.
    const reader = await account(true);
    expect((await call(reader, "post", "/api/reports/verify", { password: reader.password })).status).toBe(200);
    expect(answer(await call(reader, "get", `/api/sessions/${code}/report`))).toEqual(NOT_FOUND);
    expect(answer(await call(reader, "get", `/api/sessions/${unused}/report`))).toEqual(NOT_FOUND);

    const socket = await connectSocket(server.url, (await account(true)).cookie);
    opened.push(socket);
    const signal = (target: string) =>
      new Promise<SignalAck>((resolve) =>
        socket.emit("signal", { code: target, data: { type: "answer", peer: "p1", sdp: "x" } as SignalData }, resolve),
      );
    expect(await signal(code)).toEqual({ ok: false, message: SESSION_MESSAGES.notFound });
    expect(await signal(unused)).toEqual({ ok: false, message: SESSION_MESSAGES.notFound });
  });

  it(`refuses every call by code of an account after ${lookupFailures.points} such answers, with 429 and Retry-After`, async () => {
    const { customer, code } = await liveSession();
    const prober = await account(false);
    const own: string = (await call(prober, "post", "/api/sessions", {})).body.session.code;
    expect((await call(prober, "get", `/api/sessions/${own}/device`)).status).toBe(200);

    // Guesses in a row, some of them someone else's live code: all answered alike, all counted.
    for (let guess = 0; guess < lookupFailures.points; guess++) {
      const target = guess % 3 === 0 ? code : generateSessionCode();
      expect(answer(await call(prober, "get", `/api/sessions/${target}/device`)), `guess ${guess}`).toEqual(NOT_FOUND);
    }
    for (const target of [code, generateSessionCode(), own]) {
      const refused = await call(prober, "get", `/api/sessions/${target}/device`);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: withRealWait(SESSION_MESSAGES.tooManyLookups, Number(refused.headers["retry-after"])),
      });
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(lookupFailures.durationSeconds);
    }
    expect((await call(prober, "post", `/api/sessions/${own}/events`, { kind: "sharing-started" })).status).toBe(429);

    // The session's own participants are not slowed down, however often they ask: only misses count.
    for (let read = 0; read < lookupFailures.points + 5; read++) {
      expect((await call(customer, "get", `/api/sessions/${code}/device`)).status).toBe(200);
    }
  });
});
