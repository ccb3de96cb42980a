/**
 * HTTP server entry (issues 2 and 4): validates the configuration, opens the
 * database (exit 1 with a French message if another server holds its
 * folder), serves the build (or Vite in development) and the remote-support
 * Socket.IO endpoint (issue 5), starts the outbox worker, and shuts down
 * gracefully on SIGTERM/SIGINT: stops accepting (the port is free at once
 * for the next process: Node listens with SO_REUSEADDR), tells Socket.IO
 * clients `server:restarting` and drops them so they reconnect to the next
 * process (issue 13 §4; remote-support sessions are left as they are and
 * end only if both participants stay away `SESSION_ABANDON_S`), lets
 * in-flight requests finish, stops the worker, closes the database
 * (stopping the embedded PostgreSQL and releasing the data-folder lock);
 * forces after `SHUTDOWN_TIMEOUT_MS`.
 *
 * Issue 16: the embedded PostgreSQL (or PGlite, or `DATABASE_URL`) opens
 * while the app's modules load (they are imported after it is under way);
 * its first start logs each step; `EmbeddedPostgresError` (no binaries for
 * this system, an account that cannot reach `DATA_DIR`…) stops the server
 * with its French message. "Serveur prêt … en N s" gives the time from the
 * configuration read to the app answering. Run by `scripts/start.mjs` (`npm start`).
 *
 * Issue 30 §2 (docs/decisions/030): in production with the embedded
 * PostgreSQL, the port opens as soon as the data folder's lock is held
 * (`early-listener.ts`): the public pages the last start kept on disk
 * (`page-snapshot.ts`) answer at once, other requests wait for the app.
 */
// First: drizzle-orm, which the modules below load, then resolves in 0.1 s instead of 1.2 s under Node 24.
import "./module-resolve.ts";
import { createServer } from "node:http";
import path from "node:path";
import type { RouterContextProvider, ServerBuild } from "react-router";
import { ConfigError, parseEnv, type Env } from "./env.ts";
import type { DatabaseHandle } from "#database/connection.ts";
import { EmbeddedPostgresError } from "#database/embedded-postgres.ts";
import { createLogger } from "./logger.ts";
import type { Services } from "./services.ts";
import { listenEarly, type EarlyListener } from "./early-listener.ts";
import { createPageSnapshot, snapshotEdition } from "./page-snapshot.ts";

// Loaded, not linked: an entry's static imports are all resolved before `module-resolve.ts` runs.
const { DatabaseLockedError, openDatabase } = await import("#database/connection.ts");
const { nightlyBackupEnabled } = await import("./backup/status.ts");

const root = path.resolve(import.meta.dirname, "..");

function readEnv(): Env {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
const env = readEnv();
// React DOM's server renderer and Express pick their production code by this variable, not by our default:
// unset (as under `npm start`), every page was rendered by React's development build (issue 30 §2's profile).
process.env.NODE_ENV = env.NODE_ENV;

// Redacts tokens, session codes and personal fields (issue 13 §6).
const logger = createLogger(env);

const startedAt = performance.now();
// Issue 16 §3: the database (the embedded PostgreSQL takes ~0.3 s to start) opens while the rest of the server
// loads. Loading modules keeps this thread busy, so the few file operations before PostgreSQL is launched would
// wait for all of them (measured: launched 1.5 s late). Hence the wait below until it is launched (or has failed).
let postgresLaunched = () => {};
const launched = new Promise<void>((resolve) => (postgresLaunched = resolve));
const httpServer = createServer();
// Issue 30 §2 (docs/decisions/030): listening as soon as the data folder is this server's, the last start's
// public pages answer at once and other requests wait for the app, instead of a refused connection while
// the rest loads (about a second). Only with the embedded PostgreSQL: the lock proves the folder is ours.
const pageSnapshot =
  !env.DATABASE_URL && env.EMBEDDED_DATABASE !== "pglite" && env.NODE_ENV === "production"
    ? createPageSnapshot({
        folder: path.join(env.DATA_DIR, "pages"),
        edition: snapshotEdition(path.join(root, "build"), env),
        logger,
      })
    : undefined;
let early: EarlyListener | undefined;
const database: Promise<DatabaseHandle> = openDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  embedded: env.EMBEDDED_DATABASE,
  onLockLost: (error) => {
    logger.fatal({ err: error }, "verrou du dossier de données perdu : arrêt pour ne perdre aucune écriture");
    process.exit(1);
  },
  onProgress: (message) => logger.info(message),
  onLocked: () => {
    if (!pageSnapshot) return;
    early = listenEarly(httpServer, { logger, snapshot: pageSnapshot });
    httpServer.listen(env.PORT, env.HOST);
  },
  onToolLaunched: () => postgresLaunched(),
});
// Handled in openServices; this keeps a failure from counting as unhandled while the modules load.
database.catch(() => undefined);
// PGlite runs in this thread and a DATABASE_URL server is already up: only the embedded PostgreSQL is waited for.
if (!env.DATABASE_URL && env.EMBEDDED_DATABASE !== "pglite") {
  // A database that fails (or opens) before any launch ends the wait too.
  database.then(postgresLaunched, postgresLaunched);
  await launched;
}
// The modules load while PostgreSQL starts, one part at a time: each import holds this thread (≈0.1–0.3 s),
// and a turn of the event loop between them lets the early listener answer who is waiting. The site's build
// comes last, still during PostgreSQL's start; `createApp` then finds it in the module cache.
const turn = () => new Promise((resolve) => setImmediate(resolve));
await turn();
const { appServices, startServices } = await import("./services.ts");
await turn();
const { createApp } = await import("./app.ts");
await turn();
const { attachRealtime } = await import("./remote-support/realtime.ts");
await turn();
const { catalogueContext } = await import("#app/catalogue/context.ts");
const { shopIdentityContext } = await import("#app/shop/use-shop.ts");
await turn();
if (env.NODE_ENV !== "development") await import(path.join(root, "build", "server", "index.js")).catch(() => undefined);

async function openServices(): Promise<Services> {
  try {
    return await startServices(env, logger, undefined, await database);
  } catch (error) {
    if (error instanceof DatabaseLockedError || error instanceof EmbeddedPostgresError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    logger.fatal({ err: error }, "base de données inaccessible");
    process.exit(1);
  }
}
const services = await openServices();

const common = {
  env,
  logger,
  ...appServices(services),
  // Issue 29: every render reads the current catalogue (prices edited in « Tarifs », docs/decisions/026).
  sharedContext: (context: RouterContextProvider) => {
    context.set(catalogueContext, services.catalogue.current());
    // Issue 29 « Boutique »: the shop's identity of this render (root loader → `useShop()`).
    context.set(shopIdentityContext, services.shopIdentity.current());
  },
};
let app;
if (env.NODE_ENV === "development") {
  const { createServer: createViteServer } = await import("vite");
  const vite = await createViteServer({
    root,
    server: { middlewareMode: true, hmr: { server: httpServer } },
    appType: "custom",
  });
  app = await createApp({
    ...common,
    mode: "development",
    vite: {
      middlewares: vite.middlewares,
      loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    },
  });
} else {
  app = await createApp({ ...common, mode: "production", buildDir: path.join(root, "build"), pageSnapshot });
}

if (!early) httpServer.on("request", app);
// Remote-support realtime (issue 5) on the same server, at /socket.io/; across processes when DATABASE_URL is set.
const realtime = attachRealtime({
  httpServer,
  auth: services.auth,
  sessions: services.sessions,
  logger,
  publicUrl: env.PUBLIC_URL,
  databaseUrl: env.DATABASE_URL,
  db: services.database.db,
  sessionAbandonMs: env.SESSION_ABANDON_S * 1000,
  devices: services.devices,
  agenda: services.booking,
  // Issue 29: waiting apps are told the hours « Boutique » holds now, not the build's defaults.
  shop: services.shopIdentity,
});
/** Once the app and Socket.IO answer: logs the time since the configuration was read, starts the services. */
function ready() {
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).replace(".", ",");
  logger.info(
    { host: env.HOST, port, publicUrl: env.PUBLIC_URL },
    `Serveur prêt sur http://${env.HOST}:${port} en ${seconds} s (adresse publique : ${env.PUBLIC_URL})`,
  );
  services.outbox.start();
  services.retention.start();
  // Issue 29: learns within ~2 s of price edits made through another server process.
  services.catalogue.start();
  // Issue 29: the nightly backup (off by default with DATABASE_URL: back that server up with its own tools).
  if (nightlyBackupEnabled(env)) services.backup.start();
  // Issue 29: while no manager exists, the one-time set-up link (logged once at warn, its only appearance).
  services.staff.announceSetupLink().catch((error: unknown) => {
    logger.error({ err: error }, "lien de création du compte gérant non créé");
  });
  // A parent that spawned this server with an IPC channel (pm2's `wait_ready`, the e2e tests) learns that
  // this process, not another one, now listens on the port.
  process.send?.("ready");
}
if (early) {
  early.handOver(app);
  ready();
} else {
  httpServer.listen(env.PORT, env.HOST, ready);
}

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "arrêt en cours");
  const force = setTimeout(() => {
    logger.warn("arrêt forcé : des requêtes n'ont pas fini à temps");
    httpServer.closeAllConnections();
    process.exit(1);
  }, env.SHUTDOWN_TIMEOUT_MS);
  force.unref();
  // Open WebSockets would hold the HTTP server open until the forced exit; closing them first makes clients reconnect.
  const realtimeClosed = realtime.close();
  httpServer.close(async () => {
    try {
      await realtimeClosed;
      await services.close();
      await pageSnapshot?.flush();
      logger.info("arrêté");
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, "arrêt incomplet");
      process.exit(1);
    }
  });
  httpServer.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
