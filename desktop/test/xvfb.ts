/**
 * A throwaway X server for the desktop app's tests (issue 15, "Tests"):
 * Debian's Xvfb on the first free display number from 57. Missing Xvfb is
 * an error, never a skip: CI installs the `xvfb` package.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

export type Xvfb = { display: string; width: number; height: number; stop(): Promise<void> };

const XVFB = "/usr/bin/Xvfb";

/** Starts Xvfb with one `width`×`height` 24-bit screen; resolves once its socket exists (≤ 10 s). */
export async function startXvfb(width = 640, height = 480): Promise<Xvfb> {
  if (!existsSync(XVFB)) throw new Error(`${XVFB} est introuvable : installez le paquet xvfb (apt-get install xvfb).`);
  for (let number = 57; number < 90; number++) {
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const child = spawn(XVFB, [`:${number}`, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const started = await waitForSocket(child, `/tmp/.X11-unix/X${number}`);
    if (started) {
      return { display: `:${number}`, width, height, stop: () => stopChild(child) };
    }
    // Another test run took this number between our check and Xvfb's start: try the next one.
    if (!/already active|server is already/i.test(stderr)) {
      throw new Error(`Xvfb :${number} n'a pas démarré : ${stderr.trim()}`);
    }
  }
  throw new Error("Aucun numéro d'affichage libre entre :57 et :89.");
}

async function waitForSocket(child: ChildProcess, socket: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    if (existsSync(socket)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill("SIGKILL");
  return false;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}
