/**
 * A remote-support server for tests (issue 5), without the React Router
 * build: better-auth at /api/auth, the remote-support router, the forms
 * router and Socket.IO, wired as `server/app.ts` and `server/index.ts` do,
 * listening on 127.0.0.1 and a free port. On PostgreSQL, Socket.IO uses the
 * postgres adapter, as the real server does with `DATABASE_URL`.
 *
 * Accounts are created with better-auth's own sign-up, technicians promoted
 * by a direct update (as `npm run user` does), and cookies obtained by
 * signing in through the HTTP API.
 */
import { createServer, type Server as HttpServer } from "node:http";
import { eq } from "drizzle-orm";
import express from "express";
import { pino, type Logger } from "pino";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { parseEnv } from "#server/env.ts";
import type { ClientToServerEvents, ServerToClientEvents } from "#app/remote-support/protocol.ts";
import type { ShopSource } from "#app/config/shop.ts";
import { users } from "#database/schema.ts";
import { createApiRouter } from "#server/api.ts";
import { createAuth, type Auth } from "#server/auth.ts";
import { roleFields, type Role as AccountRole } from "#server/access.ts";
import { authHandlers } from "#server/auth-http.ts";
import { createRequestService } from "#server/requests.ts";
import { requireSameOrigin } from "#server/security.ts";
import { createRemoteSupportRouter } from "#server/remote-support/api.ts";
import type { IceConfig } from "#server/remote-support/ice.ts";
import { createAssistantRouter } from "#server/assistant/api.ts";
import type { AssistantService } from "#server/assistant/service.ts";
import { createAssistantRatingService, type AssistantRatingService } from "#server/assistant/ratings.ts";
import { attachRealtime, type Realtime } from "#server/remote-support/realtime.ts";
import {
  createSessionService,
  type SessionService,
  type SessionServiceOptions,
} from "#server/remote-support/sessions.ts";
import type { SocketSignalBudget } from "#server/remote-support/limits.ts";
import {
  createDeviceService,
  type DeviceService,
  type DeviceServiceOptions,
} from "#server/remote-support/device-service.ts";
import { createBackupRouter } from "#server/backup/api.ts";
import { createStaffRouter } from "#server/staff/api.ts";
import { createStaffService, type StaffService } from "#server/staff/service.ts";
import type { TestDatabase } from "./databases.ts";
import { freePort } from "./postgres.ts";

export const TEST_AUTH_SECRET = "secret-de-test-suffisamment-long-pour-better-auth";

export type RemoteSupportServer = {
  /** `http://127.0.0.1:<port>`, also the Origin to send to /api/auth. */
  url: string;
  auth: Auth;
  sessions: SessionService;
  /** Issue 15: the desktop app's rules, behind its routes and the `/device` namespace. */
  devices: DeviceService;
  realtime: Realtime;
  httpServer: HttpServer;
  /** Issue 29: the staff service behind /api/staff, when `staff` was asked. */
  staff?: StaffService;
  close(): Promise<void>;
};

export type RemoteSupportServerOptions = {
  /** Where the server logs (default silent): issue 28 §13 reads what a flood writes. */
  logger?: Logger;
  /** Background session check period of Socket.IO, ms (tests use a short one). */
  revalidateIntervalMs?: number;
  /** ICE servers handed to participants (default none). */
  ice?: IceConfig;
  /** The assistant (issue 7), mounted at /api/assistant when given. */
  assistant?: AssistantService;
  /** Issue 17 §4: the ratings beside the assistant (default: a service on the same database, 30 per 10 minutes). */
  ratings?: AssistantRatingService;
  /** Issue 13 §4: end sessions whose two participants are gone this long, ms (default: never, as before). */
  sessionAbandonMs?: number;
  /**
   * Issue 13 §3, §8: the session service's limits and budgets (default `TEST_SESSION_OPTIONS`: limits too high
   * to matter, so suites sharing accounts across many tests are not throttled; limit tests set their own).
   */
  sessionOptions?: Pick<
    SessionServiceOptions,
    "rateLimits" | "codeTtlSeconds" | "limits" | "signalBudget" | "appSessionLimit" | "eventBudget"
  >;
  /** Issue 13 §3: each Socket.IO connection's signaling budget (default the server's). */
  signalBudget?: SocketSignalBudget;
  /**
   * Issue 15: the desktop app's pairing limit and code lifetime; issue 28 §8 its surface budget and where it counts
   * (default the server's, in memory).
   */
  deviceOptions?: Pick<DeviceServiceOptions, "pairingLimit" | "pairingCodeTtlSeconds" | "surfaceBudget" | "rateLimits">;
  /** Issue 29: mount /api/staff (the manager's routes and the link routes), with this clock (default the system's). */
  staff?: { now?: () => Date };
  /** Issue 29: the shop's identity whose opening hours `device:queue` carries (default: `defaultShop`). */
  shop?: ShopSource;
};

const UNLIMITED = { points: 1_000_000, durationSeconds: 60 };
/** The session service's limits in tests unless a suite sets its own: per-account limits out of the way. */
export const TEST_SESSION_OPTIONS = {
  limits: { joinFailures: UNLIMITED, joins: UNLIMITED, creations: UNLIMITED, lookupFailures: UNLIMITED },
  appSessionLimit: UNLIMITED,
} satisfies RemoteSupportServerOptions["sessionOptions"];

/** Starts the server on `database` (its own auth and session service, sharing the database with any other). */
export async function startRemoteSupportServer(
  database: TestDatabase,
  options: RemoteSupportServerOptions = {},
): Promise<RemoteSupportServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: url,
    DATA_DIR: database.dataDir,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    AUTH_SIGN_IN_LIMIT: "1000",
    LOG_LEVEL: "silent",
  });
  const logger = options.logger ?? pino({ level: "silent" });
  let sessions: SessionService | undefined;
  const auth = createAuth({
    db: database.db,
    env,
    logger,
    secret: TEST_AUTH_SECRET,
    onSessionEnded: (ended) => sessions?.authSessionEnded(ended),
  });
  sessions = createSessionService({
    db: database.db,
    logger,
    verifyPasswordHash: (await auth.$context).password.verify,
    ...(options.sessionOptions ?? TEST_SESSION_OPTIONS),
  });
  const devices = createDeviceService({ db: database.db, logger, sessions, ...options.deviceOptions });
  const forms = createRequestService({
    db: database.db,
    logger,
    mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple" },
    rateLimit: { points: 1000, durationSeconds: 60 },
  });

  const app = express();
  app.all("/api/auth/{*splat}", authHandlers(auth, { publicUrl: url }));
  app.use("/api", requireSameOrigin(url));
  if (options.assistant) {
    const ratings = options.ratings ?? createAssistantRatingService({ db: database.db, logger });
    app.use("/api", createAssistantRouter({ auth, assistant: options.assistant, ratings }));
  }
  app.use("/api", createRemoteSupportRouter({ auth, sessions, devices, ice: options.ice }));
  const staff = options.staff
    ? createStaffService({
        db: database.db,
        auth,
        logger,
        publicUrl: url,
        now: options.staff.now,
        onSessionEnded: (ended) => sessions?.authSessionEnded(ended),
        // Issue 37 §4: as `server/services.ts` wires it.
        onSessionsReleased: (ids) => void sessions?.announceReleased(ids),
      })
    : undefined;
  if (staff) app.use("/api", createStaffRouter({ auth, staff }));
  app.use("/api", createBackupRouter({ auth, env }));
  app.use("/api", createApiRouter(forms));

  const httpServer = createServer(app);
  const realtime = attachRealtime({
    httpServer,
    auth,
    sessions,
    logger,
    publicUrl: url,
    databaseUrl: database.url,
    revalidateIntervalMs: options.revalidateIntervalMs,
    signalBudget: options.signalBudget,
    devices,
    shop: options.shop,
    ...(options.sessionAbandonMs ? { db: database.db, sessionAbandonMs: options.sessionAbandonMs } : {}),
  });
  await new Promise<void>((resolve) => httpServer.listen(port, "127.0.0.1", resolve));
  return {
    url,
    auth,
    sessions,
    devices,
    realtime,
    httpServer,
    staff,
    async close() {
      await realtime.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

export const ROLES = ["customer", "otherCustomer", "technician", "otherTechnician"] as const;
export type Role = (typeof ROLES)[number];

export type TestAccount = {
  role: Role;
  id: string;
  name: string;
  email: string;
  password: string;
  isTechnician: boolean;
  /** Cookie header of a sign-in through the HTTP API. */
  cookie: string;
};

/** The stored role of a test account (`TestAccount.role` names the fixture, not the role). */
export function accountRole(account: Pick<TestAccount, "isTechnician">): AccountRole {
  return account.isTechnician ? "technician" : "customer";
}

/** Signs in through `POST /api/auth/sign-in/email`; returns the Cookie header to send back. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`connexion refusée (${response.status}) : ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** Signs out through `POST /api/auth/sign-out`. */
export async function signOut(url: string, cookie: string): Promise<void> {
  const response = await fetch(`${url}/api/auth/sign-out`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url, Cookie: cookie },
    body: "{}",
  });
  if (!response.ok) throw new Error(`déconnexion refusée (${response.status})`);
}

/** Creates an account (better-auth sign-up), promotes it if asked, and signs it in. */
export async function createAccount(
  server: RemoteSupportServer,
  database: TestDatabase,
  role: Role,
  isTechnician: boolean,
  suffix = "",
): Promise<TestAccount> {
  const name = {
    customer: "Léa Martin",
    otherCustomer: "Paul Durand",
    technician: "Camille Tech",
    otherTechnician: "Hugo Tech",
  }[role];
  const email = `${role.toLowerCase()}${suffix}@exemple.fr`;
  const password = `mot-de-passe-${role}`;
  const { user } = await server.auth.api.signUpEmail({ body: { name, email, password } });
  if (isTechnician) await database.db.update(users).set(roleFields("technician")).where(eq(users.id, user.id));
  return { role, id: user.id, name, email, password, isTechnician, cookie: await signIn(server.url, email, password) };
}

/** The four accounts of the permission matrix: two customers, two technicians. */
export async function createAccounts(
  server: RemoteSupportServer,
  database: TestDatabase,
): Promise<Record<Role, TestAccount>> {
  const entries = [];
  for (const role of ROLES)
    entries.push([role, await createAccount(server, database, role, role.endsWith("echnician"))] as const);
  return Object.fromEntries(entries) as Record<Role, TestAccount>;
}

export type TestSocket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Connects a Socket.IO client with `cookie` (WebSocket only unless
 * `transports` says otherwise); rejects with the server's refusal.
 */
export function connectSocket(
  url: string,
  cookie?: string,
  headers: Record<string, string> = {},
  transports: ("websocket" | "polling")[] = ["websocket"],
): Promise<TestSocket> {
  const socket: TestSocket = connect(url, {
    transports,
    reconnection: false,
    forceNew: true,
    extraHeaders: { ...(cookie ? { cookie } : {}), ...headers },
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Resolves with the arguments of the next `event`, or rejects after `timeoutMs`. */
export function nextEvent<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  timeoutMs = 5_000,
): Promise<Parameters<ServerToClientEvents[E]>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`pas d'événement ${event} en ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: Parameters<ServerToClientEvents[E]>) => {
      clearTimeout(timer);
      resolve(args);
    };
    socket.once(event, listener as never);
  });
}

/** Collects every `event` received from now on. */
export function record<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[] {
  const received: Parameters<ServerToClientEvents[E]>[] = [];
  socket.on(event, ((...args: Parameters<ServerToClientEvents[E]>) => received.push(args)) as never);
  return received;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
