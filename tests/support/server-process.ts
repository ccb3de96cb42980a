/**
 * Runs the real server (`node server/index.ts`, production build) as a child
 * process on 127.0.0.1 and a free port, for tests that restart it or run two
 * at once. `stop()` sends SIGTERM and resolves with the exit code.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "./postgres.ts";

const entry = path.resolve(import.meta.dirname, "../../server/index.ts");

export type ServerProcess = {
  url: string;
  /** stdout + stderr so far (pino JSON lines). */
  output(): string;
  stop(): Promise<number | null>;
};

/** Resolves with the exit code once `child` ends. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** Spawns the server with `env` (over a minimal base) and waits for `/healthz`. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, [entry], {
    // No STUN server in tests: an unreachable one only slows ICE gathering down.
    env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "info", ICE_STUN_URLS: "none", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${child.exitCode}) :\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`le serveur n'a pas répondu à temps :\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      return exited(child);
    },
  };
}
