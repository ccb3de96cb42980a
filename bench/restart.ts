/**
 * Server restarts with open tabs (issue 13 §4): N signed-in Socket.IO
 * clients (the browser's reconnection options, `RECONNECT_OPTIONS`, and its
 * retry after a server-side disconnect) on a production server process
 * (`server/index.ts`); the server is stopped, a new process is started on the
 * same port and data folder, and the script counts the clients that came
 * back by themselves. Twice: SIGTERM (a deploy) and kill -9 (a crash; with
 * PGlite the new process first waits for the dead one's folder lock to turn
 * stale, about 5 s). On PGlite, then on PostgreSQL when a cluster can be
 * started (as `bench/remote-support.ts` does).
 *
 * Printed for each: clients back / N, how many heard `server:restarting`,
 * the old process's exit after the signal, the new process's start (spawn →
 * `/healthz` 200), and the time to the last client back, from the new process
 * answering and from the signal. Goal: all back, within 5 s of the new process.
 *
 *   node bench/restart.ts [sockets=50]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import {
  RECONNECT_OPTIONS,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "#app/remote-support/protocol.ts";
import { signIn } from "#tests/support/remote-support.ts";
import { PASSWORD, SECRET, seedAccounts } from "./soft-assist-lib.ts";
import { ensureBuild, onBothDatabases, freePort, root, waitFor } from "./lib.ts";

const count = Number(process.argv[2] ?? 50);
const WAIT_MS = 30_000;

type Client = {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** When it last connected, ms (performance.now()). */
  connectedAt: number;
  heardRestart: boolean;
};

/** A client as the browser's `connectRealtime` makes it (same backoff; retries after "io server disconnect"). */
function connectClient(url: string, cookie: string): Promise<Client> {
  const socket: Client["socket"] = io(url, {
    transports: ["websocket"],
    forceNew: true,
    extraHeaders: { cookie },
    ...RECONNECT_OPTIONS,
  });
  const client: Client = { socket, connectedAt: 0, heardRestart: false };
  socket.on("connect", () => (client.connectedAt = performance.now()));
  socket.on("server:restarting", () => (client.heardRestart = true));
  socket.on("disconnect", (reason) => {
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 250 + Math.random() * 1_000);
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(client));
    socket.once("connect_error", (error) => {
      if (!socket.active) reject(error);
    });
  });
}

function spawnServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, "server", "index.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      ICE_STUN_URLS: "none",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      BETTER_AUTH_SECRET: SECRET,
      AUTH_SIGN_IN_LIMIT: "100000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );
const ms = (value: number) => `${Math.round(value)} ms`;

/** Stops `server` with `signal`, starts a new one like it, and reports how the clients came back. */
async function restartOnce(
  signal: "SIGTERM" | "SIGKILL",
  server: ChildProcess,
  port: number,
  env: Record<string, string>,
  clients: Client[],
) {
  for (const client of clients) client.heardRestart = false;
  const signalled = performance.now();
  server.kill(signal);
  await exited(server);
  const exitedAt = performance.now();
  const next = spawnServer(port, env);
  const startMs = await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000);
  const readyAt = performance.now();
  const deadline = readyAt + WAIT_MS;
  while (
    clients.some((client) => !client.socket.connected || client.connectedAt < signalled) &&
    performance.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const back = clients.filter((client) => client.socket.connected && client.connectedAt > signalled);
  const last = Math.max(...back.map((client) => client.connectedAt));
  const label = signal === "SIGTERM" ? "SIGTERM (deploy)" : "kill -9 (crash)";
  console.log(
    `  ${label}: ${back.length}/${clients.length} clients back by themselves` +
      (signal === "SIGTERM" ? `, ${clients.filter((c) => c.heardRestart).length} heard server:restarting` : ""),
  );
  console.log(
    `    old process gone ${ms(exitedAt - signalled)} after the signal; new process answering ${ms(startMs)} after its spawn`,
  );
  if (back.length > 0) {
    console.log(
      `    last client back ${ms(last - readyAt)} after the new process answered (${ms(last - signalled)} after the signal)`,
    );
  }
  return next;
}

async function run(label: string, databaseUrl?: string) {
  console.log(`\n${label}, ${count} signed-in sockets`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-restart-"));
  const accounts = Array.from({ length: count }, (_, i) => ({
    email: `client${i}@banc.fr`,
    name: `Client ${i}`,
    technician: i % 2 === 1,
  }));
  await seedAccounts({ dataDir, databaseUrl }, accounts);
  const port = await freePort();
  const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  let server = spawnServer(port, env);
  const url = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  try {
    await waitFor(`${url}/healthz`, 60_000);
    const cookies = await Promise.all(accounts.map((account) => signIn(url, account.email, PASSWORD)));
    clients.push(...(await Promise.all(cookies.map((cookie) => connectClient(url, cookie)))));
    server = await restartOnce("SIGTERM", server, port, env, clients);
    server = await restartOnce("SIGKILL", server, port, env, clients);
  } finally {
    for (const client of clients) client.socket.close();
    server.kill("SIGTERM");
    await exited(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

ensureBuild();
await onBothDatabases(run);
