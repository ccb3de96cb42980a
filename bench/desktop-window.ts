/**
 * Issue 27 "Figures" for the desktop app's window (decision 022):
 * - window start → code shown: the window process is spawned with a state
 *   holding a session code already written to its stdin, until the page
 *   says the code is painted (`drawn`); and, on a window already open, a new
 *   code sent → painted. On an Xvfb display (no GPU, no window manager), with
 *   the environment the app gives the window (`windowEnv`);
 * - size added per download, per system: the embedded webview library (raw,
 *   gzip 9, brotli 7 as `scripts/build-desktop.ts` compresses) plus the
 *   window's JavaScript (bundled, minified).
 *
 * Usage: `node bench/desktop-window.ts [runs] [--source]`. By default it builds
 * (cached) and runs the Linux x64 executable; `--source` runs the sources with
 * the registry's Bun instead.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { constants, brotliCompressSync, gzipSync } from "node:zlib";
import { startXvfb } from "../desktop/test/xvfb.ts";
import { windowCommand } from "../desktop/src/launcher.ts";
import { webviewInPackage, WEBVIEW_PACKAGE } from "../desktop/src/views/webview-library.ts";
import { windowEnv } from "../desktop/src/views/window.ts";
import { startingState, WINDOW_FLAG, type WindowState } from "../desktop/src/views/window-state.ts";
import { CACHE_DIR, hostBun, TARGETS } from "../scripts/desktop-targets.ts";
import { median, root } from "./lib.ts";

const runs = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5);
const fromSource = process.argv.includes("--source");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} Ko`;
const ms = (values: number[]) =>
  `médiane ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`;

/** The command of the window process: the built Linux executable, or Bun with the sources. */
function command(): string[] {
  if (fromSource) {
    const main = path.join(root, "desktop", "src", "main.ts");
    return windowCommand({ execPath: process.execPath, argv: ["node", main], env: process.env }, main, WINDOW_FLAG)!;
  }
  const out = path.join(CACHE_DIR, "bench-window");
  const build = spawnSync(
    process.execPath,
    [path.join(root, "scripts", "build-desktop.ts"), "--target", "linux-x64", "--compress", "none", "--out", out],
    { stdio: ["ignore", "inherit", "inherit"], cwd: root },
  );
  if (build.status !== 0) throw new Error("La construction a échoué.");
  const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8")) as {
    files: { fileName: string }[];
  };
  return [path.join(out, manifest.files[0]!.fileName), WINDOW_FLAG];
}

const withCode = (code: string): WindowState => ({
  ...startingState(),
  status: "Connecté au serveur.",
  code,
  codeHint: "Donnez ce code au technicien :",
});

/** One window: spawn → first code painted, then a second code sent → painted. Milliseconds. */
async function oneRun(cmd: string[], env: NodeJS.ProcessEnv): Promise<{ start: number; update: number }> {
  const started = performance.now();
  const child = spawn(cmd[0]!, cmd.slice(1), { env: windowEnv(env), stdio: ["pipe", "pipe", "ignore"] });
  child.stdin.write(`${JSON.stringify({ type: "state", state: withCode("ACD EFG") })}\n`);
  const lines = createInterface({ input: child.stdout });
  const painted = (code: string) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("La fenêtre n'a rien affiché en 60 s.")), 60_000);
      lines.on("line", (line) => {
        const event = JSON.parse(line) as { type: string; code?: string };
        if (event.type === "unavailable") reject(new Error(line));
        if (event.type === "drawn" && event.code === code) {
          clearTimeout(timer);
          resolve(performance.now());
        }
      });
    });
  const start = (await painted("ACD EFG")) - started;
  const sent = performance.now();
  child.stdin.write(`${JSON.stringify({ type: "state", state: withCode("HJK MNP") })}\n`);
  const update = (await painted("HJK MNP")) - sent;
  child.kill("SIGKILL");
  return { start, update };
}

/** Raw, gzip 9 and brotli 7 (16 MB window) sizes of a file's bytes. */
function sizes(bytes: Buffer): { raw: number; gzip: number; br: number } {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    br: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 7, [constants.BROTLI_PARAM_LGWIN]: 24 },
    }).length,
  };
}

/** The window's own JavaScript, bundled and minified by Bun as the build does (both processes' sides). */
function windowJs(): Buffer {
  const folder = mkdtempSync(path.join(tmpdir(), "bench-fenetre-"));
  try {
    const entries = ["window-child.ts", "choose.ts"].map((name) => path.join(root, "desktop", "src", "views", name));
    const result = spawnSync(
      hostBun(),
      ["build", ...entries, "--minify", "--target=bun", "--external", "koffi", "--outdir", folder],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
    if (result.status !== 0) throw new Error("bun build a échoué");
    return Buffer.concat(["window-child.js", "choose.js"].map((name) => readFileSync(path.join(folder, name))));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const cmd = command();
const display = await startXvfb(1024, 768);
try {
  const env = { ...process.env, DISPLAY: display.display, WAYLAND_DISPLAY: "" };
  const results: { start: number; update: number }[] = [];
  // A first run warms the disk cache (WebKitGTK's libraries); it is not counted.
  await oneRun(cmd, env);
  for (let run = 0; run < runs; run++) results.push(await oneRun(cmd, env));
  console.log(`Fenêtre (${fromSource ? "sources + Bun" : "exécutable Linux x64"}, Xvfb, ${runs} essais) :`);
  console.log(`  démarrage → code affiché : ${ms(results.map((result) => result.start))}`);
  console.log(`  nouveau code envoyé → affiché : ${ms(results.map((result) => result.update))}`);
} finally {
  await display.stop();
}

const js = sizes(windowJs());
console.log(`\nTaille ajoutée par téléchargement (brotli 7 / gzip 9 / brut) :`);
console.log(`  code JavaScript de la fenêtre (toutes cibles) : ${kb(js.br)} / ${kb(js.gzip)} / ${kb(js.raw)}`);
for (const target of TARGETS) {
  const [platform = "", arch = ""] = target.koffiPlatform.split("-");
  const file = path.join(root, "node_modules", WEBVIEW_PACKAGE, webviewInPackage(platform, arch)!);
  const library = sizes(readFileSync(file));
  console.log(
    `  ${target.id.padEnd(12)} bibliothèque ${path.basename(file).padEnd(20)} ${kb(library.br)} / ${kb(library.gzip)} / ` +
      `${kb(statSync(file).size)} → avec le code : ${kb(library.br + js.br)} / ${kb(library.gzip + js.gzip)} / ${kb(library.raw + js.raw)}`,
  );
}
