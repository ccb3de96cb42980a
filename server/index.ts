/**
 * HTTP server entry (issue 2): validates the configuration, serves the build
 * (or Vite in development), and shuts down gracefully on SIGTERM/SIGINT:
 * stops accepting, lets in-flight requests finish, forces after
 * `SHUTDOWN_TIMEOUT_MS`.
 */
import { createServer } from "node:http";
import path from "node:path";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { ConfigError, parseEnv, type Env } from "../app/utils/env.server.ts";
import { createApp } from "./app.ts";

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

const logger = pino({ level: env.LOG_LEVEL, base: undefined });
const httpServer = createServer();

let app;
if (env.NODE_ENV === "development") {
  const { createServer: createViteServer } = await import("vite");
  const vite = await createViteServer({
    root,
    server: { middlewareMode: true, hmr: { server: httpServer } },
    appType: "custom",
  });
  app = await createApp({
    env,
    logger,
    mode: "development",
    vite: {
      middlewares: vite.middlewares,
      loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    },
  });
} else {
  app = await createApp({ env, logger, mode: "production", buildDir: path.join(root, "build") });
}

httpServer.on("request", app);
httpServer.listen(env.PORT, env.HOST, () => {
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  logger.info({ host: env.HOST, port, publicUrl: env.PUBLIC_URL }, `Serveur prêt sur http://${env.HOST}:${port}`);
});

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
  httpServer.close(() => {
    logger.info("arrêté");
    process.exit(0);
  });
  httpServer.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
