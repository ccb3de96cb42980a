/**
 * The whole server in the test process (issue 13): `startServices` on a fresh
 * PGlite folder, `createApp` in production mode on the current build, and
 * Socket.IO, wired as `server/index.ts` does, listening on 127.0.0.1 at a free
 * port whose origin is `PUBLIC_URL` (the only origin the server trusts).
 *
 * The build is made first when stale, under `/tmp/atelier-build.lock` so that
 * parallel test runs never build over each other.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { parseEnv, type Env } from "#server/env.ts";
import { createApp } from "#server/app.ts";
import { attachRealtime } from "#server/remote-support/realtime.ts";
import { appServices, startServices, type Services } from "#server/services.ts";
import { catalogueContext } from "#app/catalogue/context.ts";
import { shopIdentityContext } from "#app/shop/use-shop.ts";
import { copyMigratedPglite } from "./databases.ts";
import { freePort } from "./postgres.ts";
import { TEST_AUTH_SECRET } from "./remote-support.ts";

const root = path.resolve(import.meta.dirname, "../..");

export type AppServer = {
  /** `http://127.0.0.1:<port>`, also its PUBLIC_URL. */
  url: string;
  env: Env;
  services: Services;
  close(): Promise<void>;
};

/** Builds the site when no current build exists (same check as `npm start`), one build at a time. */
export function ensureBuild(): void {
  // The build's own PUBLIC_URL (the default): the one every other test run builds for.
  const { PUBLIC_URL: _ignored, ...environment } = process.env;
  execFileSync("flock", ["/tmp/atelier-build.lock", process.execPath, path.join(root, "scripts", "ensure-build.ts")], {
    cwd: root,
    env: environment,
    stdio: "pipe",
  });
}

/** Starts the server with `variables` over a quiet test configuration; `close()` stops it and removes its data. */
export async function startAppServer(variables: Record<string, string> = {}): Promise<AppServer> {
  ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-app-"));
  // The test configuration's database is PGlite in DATA_DIR: a copy of the run's migrated one opens 5 s sooner.
  if (!variables.DATABASE_URL && (variables.EMBEDDED_DATABASE ?? "pglite") === "pglite")
    await copyMigratedPglite(dataDir);
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    LOG_LEVEL: "silent",
    ICE_STUN_URLS: "none",
    ...variables,
  });
  const logger = pino({ level: "silent" });
  const services = await startServices(env, logger);
  const app = await createApp({
    env,
    logger,
    ...appServices(services),
    // Issue 29: renders read the current catalogue, as server/index.ts sets it.
    sharedContext: (context) => {
      context.set(catalogueContext, services.catalogue.current());
      context.set(shopIdentityContext, services.shopIdentity.current());
    },
    mode: "production",
    buildDir: path.join(root, "build"),
  });
  const httpServer = createServer(app);
  const realtime = attachRealtime({
    httpServer,
    auth: services.auth,
    sessions: services.sessions,
    logger,
    publicUrl: env.PUBLIC_URL,
    agenda: services.booking,
    shop: services.shopIdentity,
  });
  await new Promise<void>((resolve) => httpServer.listen(port, "127.0.0.1", resolve));
  return {
    url,
    env,
    services,
    async close() {
      await realtime.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await services.close();
      // Retried: a postgres stopping as the server exits may still write its last WAL file (ENOTEMPTY in CI).
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * Sends `path` byte for byte (no URL parsing: backslashes, `//` and encoded
 * slashes reach the server as written), with `headers`.
 */
export function rawRequest(
  url: string,
  path: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
