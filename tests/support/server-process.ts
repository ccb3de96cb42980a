/**
 * Runs the real server (`node build/atelier-server.mjs`: `server/index.ts` bundled, production build) as a child
 * process on 127.0.0.1 and a free port (or `env.PORT`, to restart on the same
 * one), for tests that restart it or run two at once. `stop()` sends SIGTERM
 * and resolves with the exit code; `kill()` sends SIGKILL (a crash).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { SERVER_NODE_FLAGS } from "#server/node-flags.ts";
import { SERVER_ENTRY } from "../../scripts/ensure-build.ts";
import { freePort } from "./postgres.ts";

// The server as `npm start` runs it: bundled (docs/decisions/027; `npm run test:e2e` makes it first).
const entry = SERVER_ENTRY;
export { SERVER_ENTRY };

export type ServerProcess = {
  url: string;
  /** stdout + stderr so far (pino JSON lines). */
  output(): string;
  stop(): Promise<number | null>;
  /** SIGKILL: no cleanup at all (issue 13 §4); resolves once the process is gone. */
  kill(): Promise<number | null>;
};

/** Resolves with the exit code once `child` ends. */
export function exited(child: ChildProcess): Promise<number | null> {
  // A process killed by a signal has no exit code, only `signalCode`.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/**
 * Spawns the server with `env` (over a minimal base) and waits for `/healthz`.
 * A port picked here is free only until someone else takes it: another
 * worker's server, or its embedded PostgreSQL, may bind it while this one
 * boots (EADDRINUSE seen in CI). Then it starts again on a new port, up to
 * 5 times; a port given as `env.PORT` is never changed.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = env.PORT ? Number(env.PORT) : await freePort();
    try {
      return await spawnOnPort(env, port, timeoutMs);
    } catch (error) {
      if (!(error instanceof PortTaken) || env.PORT || attempt >= 5) throw error;
    }
  }
}

class PortTaken extends Error {}

async function spawnOnPort(env: Record<string, string>, port: number, timeoutMs: number): Promise<ServerProcess> {
  let output = "";
  const url = `http://127.0.0.1:${port}`;
  // The Node options `npm start` uses (issue 16 §2); the database is the default one, the embedded PostgreSQL.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    // No STUN server in tests: an unreachable one only slows ICE gathering down.
    // PUBLIC_URL is the origin the tests reach: it is the only one the server trusts (issue 13 §9).
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ICE_STUN_URLS: "none",
      PUBLIC_URL: url,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  // The server says "ready" once it listens: a /healthz answer could come from whoever took the port.
  const outcome = await new Promise<"ready" | "exited" | "timeout">((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), timeoutMs);
    child.on("message", (message) => {
      if (message === "ready") {
        clearTimeout(timer);
        resolve("ready");
      }
    });
    // "close", not "exit": the output is complete by then.
    child.once("close", () => {
      clearTimeout(timer);
      resolve("exited");
    });
  });
  if (outcome === "timeout") {
    child.kill("SIGKILL");
    throw new Error(`le serveur n'a pas répondu à temps :\n${output}`);
  }
  if (outcome === "exited") {
    const message = `le serveur s'est arrêté (code ${child.exitCode}) :\n${output}`;
    throw output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)
      ? new PortTaken(message)
      : new Error(message);
  }
  child.disconnect();
  return {
    url,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      return exited(child);
    },
    async kill() {
      child.kill("SIGKILL");
      return exited(child);
    },
  };
}
