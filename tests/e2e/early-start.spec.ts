/**
 * Issue 30 §2 (docs/decisions/030): a restarted server opens its port as soon as its data folder is its own.
 * The public pages the last start kept answer before it is ready, for the same build and address only;
 * every other request waits for it instead of being refused.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SERVER_NODE_FLAGS } from "#server/node-flags.ts";
import { SERVER_ENTRY, startServerProcess } from "#tests/support/server-process.ts";

/**
 * Starts the server on `port` with `env` and asks each of `paths` as soon as the port accepts connections
 * (retrying a refused connection every 5 ms). Returns the answers and the paths its log says were answered
 * from the disk; stops the server once it is ready.
 */
async function restartAndAsk(port: number, env: Record<string, string>, paths: string[]) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    // The settings `startServerProcess` gives, or the pages kept would be another configuration's.
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      ICE_STUN_URLS: "none",
      ...env,
      LOG_LEVEL: "debug",
      LOG_FORMAT: "json",
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  let ready = false;
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  child.on("message", (message) => (ready ||= message === "ready"));
  const ask = async (pagePath: string) => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté :\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}${pagePath}`);
        return { status: response.status, body: await response.text() };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  };
  try {
    const answers = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await ask(p)] as const)));
    await expect.poll(() => ready, { timeout: 60_000 }).toBe(true);
    const fromDisk = output
      .split("\n")
      .filter((line) => line.includes('"msg":"page from disk"'))
      .map((line) => (JSON.parse(line) as { url: string }).url);
    return { answers, fromDisk, output: () => output };
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  }
}

const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

test(
  "a restart answers the pages kept by the last start at once, for its own address only",
  { tag: "@desktop" },
  async () => {
    test.setTimeout(120_000);
    const folder = mkdtempSync(path.join(tmpdir(), "atelier-e2e-early-"));
    const origin = "https://atelier-redemarrage.example.fr";
    try {
      const first = await startServerProcess({ PUBLIC_URL: origin, DATA_DIR: folder, LOG_LEVEL: "warn" });
      const port = Number(new URL(first.url).port);
      const home = await (await fetch(`${first.url}/`)).text();
      const contact = await (await fetch(`${first.url}/contact`)).text();
      expect(await first.stop()).toBe(0);

      const again = await restartAndAsk(port, { PUBLIC_URL: origin, DATA_DIR: folder }, ["/", "/contact", "/healthz"]);
      // Answered from the disk while the server loaded: the very pages of the last start.
      expect(again.fromDisk.sort()).toEqual(["/", "/contact"]);
      expect(again.answers["/"]!.status).toBe(200);
      expect(again.answers["/"]!.body === home, "/ : la page du dernier démarrage").toBe(true);
      expect(again.answers["/contact"]!.body === contact, "/contact : la page du dernier démarrage").toBe(true);
      expect(again.output()).toContain("pages servies depuis le disque pendant le démarrage");
      // Not a kept page: held, then answered by the server itself.
      expect(again.answers["/healthz"]).toEqual({ status: 200, body: '{"status":"ok"}' });

      // Another address: the pages on disk are not its own, so it waits for its own render.
      const other = "https://autre-adresse.example.fr";
      const moved = await restartAndAsk(port, { PUBLIC_URL: other, DATA_DIR: folder }, ["/"]);
      expect(moved.answers["/"]!.status).toBe(200);
      expect(canonical(moved.answers["/"]!.body)).toBe(`${other}/`);
      expect(moved.fromDisk).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true, maxRetries: 10 });
    }
  },
);
