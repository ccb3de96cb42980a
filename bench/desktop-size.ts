/**
 * Issue 15 "Figures": the desktop app's size per system (raw, and as downloaded with gzip or brotli;
 * xz for comparison, which browsers cannot decode), its build time, and for Linux x64 the start
 * time of `--version` (median of 10) and the resident memory once started and waiting to pair.
 * Builds first when needed (`npm run build:desktop`, cached per target).
 *
 * Usage: `node bench/desktop-size.ts [runs]` (xz -6 takes about a minute a file; its sizes are kept
 * in node_modules/.cache/desktop-build/xz-sizes.json by SHA-256).
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DesktopManifest } from "#server/downloads.ts";
import { has, median, root } from "./lib.ts";

const runs = Number(process.argv[2] ?? 10);
const OUT_DIR = path.join(root, "build", "desktop");
const XZ_CACHE = path.join(root, "node_modules", ".cache", "desktop-build", "xz-sizes.json");
const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : `${(bytes / 1e6).toFixed(1)} MB`);

/** Size of `xz -6` of `file` (streamed through a pipe), remembered by the file's SHA-256. */
async function xzSize(file: string, sha256: string): Promise<number | undefined> {
  const cache = existsSync(XZ_CACHE) ? (JSON.parse(readFileSync(XZ_CACHE, "utf8")) as Record<string, number>) : {};
  if (cache[sha256] !== undefined) return cache[sha256];
  if (!has("xz")) return undefined;
  const child = spawn("xz", ["-6", "-T0", "-c", file], { stdio: ["ignore", "pipe", "inherit"] });
  let size = 0;
  for await (const chunk of child.stdout) size += (chunk as Buffer).length;
  const code = await new Promise((resolve) =>
    child.exitCode === null ? child.once("exit", resolve) : resolve(child.exitCode),
  );
  if (code !== 0) return undefined;
  cache[sha256] = size;
  writeFileSync(XZ_CACHE, JSON.stringify(cache, null, 2));
  return size;
}

/** Resident memory (kB) of the app a second after it started pairing with a server that never answers. */
async function rssWhilePairing(executable: string): Promise<number | undefined> {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const address = silent.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const app = spawn(executable, ["--server", `http://127.0.0.1:${port}`, "--code", "ACDE-3479"], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  let rss: number | undefined;
  try {
    const status = readFileSync(`/proc/${app.pid}/status`, "utf8");
    rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  } catch {
    rss = undefined;
  }
  app.kill("SIGKILL");
  for (const socket of sockets) socket.destroy();
  silent.close();
  return rss;
}

function startTimes(command: string, args: string[]): number[] {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(command, args, { stdio: "ignore" });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} : code ${result.status}`);
  }
  return times;
}

// The same command as `npm run build:desktop` (every system; a current target is skipped).
const build = spawnSync(process.execPath, [path.join(root, "scripts", "build-desktop.ts")], { stdio: "inherit" });
if (build.status !== 0) throw new Error("build:desktop failed");
const manifest = JSON.parse(readFileSync(path.join(OUT_DIR, "manifest.json"), "utf8")) as DesktopManifest;
// Issue 29: no address is built in (each server adds its own to the download, ~100 bytes).
console.log(`\nDesktop app ${manifest.files[0]?.version ?? ""}`);
console.log("| system | raw | gzip | brotli | xz -6 | compile | compress |");
console.log("|---|---|---|---|---|---|---|");
for (const file of manifest.files) {
  const xz = await xzSize(path.join(OUT_DIR, file.fileName), file.sha256);
  const seconds = (value: number | undefined) => (value === undefined ? "–" : `${value.toFixed(1)} s`);
  console.log(
    `| ${file.label} | ${mb(file.bytes)} | ${mb(file.transfer.gzip)} | ${mb(file.transfer.br)} | ${mb(xz)} | ` +
      `${seconds(file.buildSeconds?.compile)} | ${seconds(file.buildSeconds?.compress)} |`,
  );
}

const linux = manifest.files.find((file) => file.target === "linux-x64");
if (linux && process.platform === "linux" && process.arch === "x64") {
  // Run from a folder of its own: nothing of the repository (node_modules) can help it.
  const alone = mkdtempSync(path.join(tmpdir(), "desktop-bench-"));
  try {
    const executable = path.join(alone, linux.fileName);
    copyFileSync(path.join(OUT_DIR, linux.fileName), executable);
    const app = startTimes(executable, ["--version"]);
    const node = startTimes(process.execPath, ["-e", "0"]);
    console.log(`\nLinux x64, ${runs} runs each (median, min–max):`);
    const line = (label: string, times: number[]) =>
      console.log(
        `  ${label}: ${median(times).toFixed(0)} ms (${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)})`,
      );
    line("app --version", app);
    line("node -e 0 (Node 24, the floor of a Node SEA)", node);
    const rss = await rssWhilePairing(executable);
    console.log(
      `  RSS 1.5 s after start, waiting to pair: ${rss === undefined ? "–" : `${(rss / 1024).toFixed(0)} MB`}`,
    );
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
}
