/**
 * `npm run build:desktop [-- --target linux-x64 …] [--compress full|fast|none] [--force]` (issue 15,
 * "Packaging", docs/decisions/011): one executable per system with `bun build --compile`, into
 * `build/desktop/`, with a `.br` and a `.gz` copy of each and `manifest.json` for the server
 * (`server/downloads.ts`).
 *
 * - Each target's Bun runtime and koffi native part come from the npm registry (desktop-targets.ts);
 *   Bun compiles with `executablePath`, so it never downloads anything.
 * - The server address is built in from PUBLIC_URL (same default as the server, `server/env.ts`), as
 *   the global `__ATELIER_SERVER_URL__` that desktop/src/main.ts reads; `--server-url` overrides.
 * - A target is rebuilt only when its inputs changed (desktop sources, the shared protocol, the
 *   lockfile, these scripts, the address, the version, the compression): a hash of them is kept in
 *   `node_modules/.cache/desktop-build/out/.stamps/<target>.json`, beside the files themselves, which
 *   `build/desktop/` links to (a site build deletes `build/`; the next run restores the links at
 *   once). `--force` rebuilds anyway.
 * - `--compress fast` (brotli 5, gzip 6: a few seconds) is for tests; `full` (the default) is what
 *   customers download.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import lockfile from "proper-lockfile";
import { parseEnv } from "#server/env.ts";
import {
  DOWNLOAD_ENCODINGS,
  parseManifest,
  type DesktopManifest,
  type DesktopManifestEntry,
} from "#server/downloads.ts";
import type { BundleJob } from "./desktop-bundle.ts";
import { checkMachOSignature, removeMachOSignature } from "./macho.ts";
import { CACHE_DIR, findTarget, hostBun, ROOT, targetFiles, TARGETS, type DesktopTarget } from "./desktop-targets.ts";

export const DESKTOP_OUT_DIR = path.join(ROOT, "build", "desktop");
export const DESKTOP_ENTRY = path.join(ROOT, "desktop", "src", "main.ts");
const VERSION_FILE = path.join(ROOT, "desktop", "src", "version.ts");
const FILE_PREFIX = "atelier-assistance";

/** How hard to compress: `full` for customers, `fast` for tests, `none` to skip. */
export type CompressionLevel = "full" | "fast" | "none";
const COMPRESSION: Record<Exclude<CompressionLevel, "none">, { brotli: number; gzip: number }> = {
  // Measured on the Linux build (110 MB, docs/decisions/011): brotli 7 → 44.4 MB in ~10 s of CPU;
  // brotli 9 saves 1.1 MB more for ~6× the time (minutes per file on 2 shared cores); gzip is the
  // fallback for the rare browser without brotli.
  full: { brotli: 7, gzip: 9 },
  fast: { brotli: 5, gzip: 6 },
};

export type BuildOptions = {
  targets: readonly DesktopTarget[];
  outDir?: string;
  entry?: string;
  /** Built into the executables; defaults to PUBLIC_URL as the server computes it. */
  serverUrl?: string;
  compress?: CompressionLevel;
  force?: boolean;
  log?: (line: string) => void;
};

/** The app's version, from desktop/src/version.ts (`APP_VERSION`), read as text: the build never runs app code. */
export function appVersion(): string {
  const match = /export const APP_VERSION = "([0-9A-Za-z.+-]+)"/.exec(readFileSync(VERSION_FILE, "utf8"));
  if (!match?.[1]) throw new Error(`APP_VERSION introuvable dans ${path.relative(ROOT, VERSION_FILE)}`);
  return match[1];
}

/** The file a target's build is saved as. */
export function desktopFileName(target: DesktopTarget, version: string): string {
  return `${FILE_PREFIX}-${version}-${target.suffix}`;
}

function walk(target: string, files: string[]): void {
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) {
    for (const name of readdirSync(target).sort()) walk(path.join(target, name), files);
  } else if (!/\.test\.tsx?$/.test(target)) {
    files.push(target);
  }
}

/** Hash of everything a target's executable is made from. */
function inputsHash(target: DesktopTarget, entry: string, settings: Record<string, string>): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ target: target.id, ...settings }));
  const files: string[] = [];
  for (const input of [
    "desktop/src",
    "app/remote-support/device-protocol.ts",
    "package-lock.json",
    "scripts/build-desktop.ts",
    "scripts/desktop-bundle.ts",
    "scripts/desktop-targets.ts",
    "scripts/macho.ts",
  ]) {
    walk(path.join(ROOT, input), files);
  }
  // An entry of its own (a test's probe) counts too.
  if (!files.includes(entry)) files.push(entry);
  for (const file of files) hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  return hash.digest("hex");
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Writes `<file>.br` and `<file>.gz` (streamed: the executables are ~100 MB); returns their sizes. */
export async function compressFile(
  file: string,
  level: { brotli: number; gzip: number },
): Promise<{ br: number; gzip: number }> {
  const size = statSync(file).size;
  await Promise.all([
    pipeline(
      createReadStream(file),
      createBrotliCompress({
        params: {
          [constants.BROTLI_PARAM_QUALITY]: level.brotli,
          // 16 MB window (the most a browser accepts without "large window" brotli).
          [constants.BROTLI_PARAM_LGWIN]: 24,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      }),
      createWriteStream(`${file}.br.tmp`),
    ),
    pipeline(createReadStream(file), createGzip({ level: level.gzip }), createWriteStream(`${file}.gz.tmp`)),
  ]);
  await Promise.all([rename(`${file}.br.tmp`, `${file}.br`), rename(`${file}.gz.tmp`, `${file}.gz`)]);
  return { br: statSync(`${file}.br`).size, gzip: statSync(`${file}.gz`).size };
}

/** Runs `bun build --compile` for one target (through desktop-bundle.ts, for its koffi plugin). */
function compile(
  target: DesktopTarget,
  job: Omit<BundleJob, "bunTarget" | "executablePath" | "koffiPlatform" | "koffiNode">,
): void {
  const files = targetFiles(target);
  const full: BundleJob = {
    ...job,
    bunTarget: target.bunTarget,
    executablePath: files.runtime,
    koffiPlatform: target.koffiPlatform,
    koffiNode: files.koffiNode,
  };
  // --no-env-file: a .env in the repository (the server's settings) has nothing to do with the app.
  const bundler = path.join(ROOT, "scripts", "desktop-bundle.ts");
  const result = spawnSync(hostBun(), ["--no-env-file", bundler, JSON.stringify(full)], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`La compilation pour ${target.id} a échoué (code ${result.status}).`);
}

/**
 * A macOS build must carry a valid signature or none (scripts/macho.ts): Apple Silicon refuses
 * unsigned or mis-signed code, so a bad arm64 signature stops the build; a bad x64 one is removed.
 */
async function fixMacSignature(file: string, target: DesktopTarget): Promise<void> {
  const content = await readFile(file);
  const signature = checkMachOSignature(content);
  if (!signature || (signature.badPages === 0 && signature.coversAllCode)) return;
  if (target.arch === "arm64")
    throw new Error(`${target.id} : signature ad hoc invalide (${signature.badPages} pages)`);
  await writeFile(file, removeMachOSignature(content));
}

/** Deletes this target's files of other versions (and leftovers of an interrupted build). */
async function removeStale(outDir: string, target: DesktopTarget, keep: string): Promise<void> {
  for (const name of existsSync(outDir) ? readdirSync(outDir) : []) {
    const base = name.replace(/^\.partial-/, "").replace(/\.(br|gz)(\.tmp)?$/, "");
    if (base !== keep && base.startsWith(`${FILE_PREFIX}-`) && base.endsWith(`-${target.suffix}`)) {
      await rm(path.join(outDir, name), { force: true });
    }
  }
}

async function readManifest(outDir: string): Promise<DesktopManifest | null> {
  try {
    return parseManifest(JSON.parse(await readFile(path.join(outDir, "manifest.json"), "utf8")));
  } catch {
    return null;
  }
}

/**
 * Builds the asked targets (skipping those already current) and rewrites the manifest, which keeps
 * the other targets' entries while their files are there.
 * @returns the manifest written.
 */
export async function buildDesktop(options: BuildOptions): Promise<DesktopManifest> {
  const outDir = options.outDir ?? DESKTOP_OUT_DIR;
  // `react-router build` deletes the whole build/ folder: the executables and their stamps live in
  // the cache, and build/desktop gets hard links to them, restored in a moment after a site build.
  const workDir = outDir.startsWith(CACHE_DIR + path.sep) ? outDir : path.join(CACHE_DIR, "out");
  await mkdir(workDir, { recursive: true });
  // One build at a time (an end-to-end run and `npm run build:desktop` may overlap).
  const release = await lockfile.lock(workDir, {
    realpath: false,
    stale: 120_000,
    retries: { retries: 600, minTimeout: 1_000, maxTimeout: 1_000 },
    onCompromised: () => undefined,
  });
  try {
    const manifest = await buildLocked(options, workDir);
    if (workDir !== outDir) await publish(manifest, workDir, outDir);
    return manifest;
  } finally {
    await release();
  }
}

/** Links (or copies, across file systems) the manifest's files into `outDir`, then the manifest; older builds there go. */
async function publish(manifest: DesktopManifest, workDir: string, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const wanted = new Set(["manifest.json"]);
  for (const entry of manifest.files) {
    wanted.add(entry.fileName);
    for (const { name, suffix } of DOWNLOAD_ENCODINGS) {
      if (entry.transfer[name] !== undefined) wanted.add(entry.fileName + suffix);
    }
  }
  for (const name of wanted) {
    const source = path.join(workDir, name);
    const target = path.join(outDir, name);
    if (name !== "manifest.json" && existsSync(target) && statSync(target).ino === statSync(source).ino) continue;
    // Under a temporary name, then renamed over: the server never sees a half-written file.
    const temporary = path.join(outDir, `.partial-${name}`);
    await rm(temporary, { force: true });
    await link(source, temporary).catch(() => copyFile(source, temporary));
    await rename(temporary, target);
  }
  for (const name of readdirSync(outDir)) {
    if (!wanted.has(name) && (name.startsWith(`${FILE_PREFIX}-`) || name.startsWith(".partial-"))) {
      await rm(path.join(outDir, name), { force: true });
    }
  }
}

async function buildLocked(options: BuildOptions, outDir: string): Promise<DesktopManifest> {
  const entry = options.entry ?? DESKTOP_ENTRY;
  const compress = options.compress ?? "full";
  const log = options.log ?? ((line: string) => console.log(line));
  const serverUrl = options.serverUrl ?? parseEnv().PUBLIC_URL;
  if (!existsSync(entry)) throw new Error(`Point d'entrée introuvable : ${entry}`);
  const version = appVersion();
  await mkdir(path.join(outDir, ".stamps"), { recursive: true });

  const previous = await readManifest(outDir);
  const entries = new Map<string, DesktopManifestEntry>();
  for (const old of previous?.files ?? []) {
    if (existsSync(path.join(outDir, old.fileName))) entries.set(old.target, old);
  }

  for (const target of options.targets) {
    const fileName = desktopFileName(target, version);
    const file = path.join(outDir, fileName);
    const settings = { version, serverUrl, compress, entry: path.relative(ROOT, entry) };
    const hash = inputsHash(target, entry, settings);
    const stampFile = path.join(outDir, ".stamps", `${target.id}.json`);
    const stamp = existsSync(stampFile)
      ? (JSON.parse(readFileSync(stampFile, "utf8")) as { hash: string; entry: DesktopManifestEntry })
      : null;
    const current =
      !options.force &&
      stamp?.hash === hash &&
      existsSync(file) &&
      statSync(file).size === stamp.entry.bytes &&
      Object.keys(stamp.entry.transfer).every((name) => existsSync(`${file}.${name === "br" ? "br" : "gz"}`));
    if (current) {
      log(`${target.id} : à jour (${fileName})`);
      entries.set(target.id, stamp.entry);
      continue;
    }

    const started = performance.now();
    await removeStale(outDir, target, fileName);
    // The old copies go first: the server never pairs a new file with another build's .br or manifest line.
    await Promise.all(
      ["", ".br", ".gz", ".br.tmp", ".gz.tmp"].map((suffix) => rm(`${file}${suffix}`, { force: true })),
    );
    // Bun adds ".exe" to a Windows outfile not ending with it: the partial name keeps the extension.
    const partial = path.join(outDir, `.partial-${fileName}`);
    await rm(partial, { force: true });
    compile(target, {
      entry,
      outfile: partial,
      define: { __ATELIER_SERVER_URL__: JSON.stringify(serverUrl) },
      bytecode: false,
    });
    if (target.platform === "macos") await fixMacSignature(partial, target);
    await rename(partial, file);
    const compiled = performance.now();
    const transfer: DesktopManifestEntry["transfer"] =
      compress === "none" ? {} : await compressFile(file, COMPRESSION[compress]);
    const built: DesktopManifestEntry = {
      target: target.id,
      platform: target.platform,
      arch: target.arch,
      label: target.label,
      fileName,
      version,
      bytes: statSync(file).size,
      sha256: await sha256Of(file),
      transfer,
      buildSeconds: {
        compile: Math.round(compiled - started) / 1000,
        compress: Math.round(performance.now() - compiled) / 1000,
      },
    };
    entries.set(target.id, built);
    await writeFile(stampFile, `${JSON.stringify({ hash, entry: built }, null, 2)}\n`);
    const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : `${(bytes / 1e6).toFixed(1)} Mo`);
    log(
      `${target.id} : ${fileName} ${mb(built.bytes)} (br ${mb(transfer.br)}, gzip ${mb(transfer.gzip)}), ` +
        `compilé en ${built.buildSeconds?.compile} s, compressé en ${built.buildSeconds?.compress} s`,
    );
  }

  const manifest: DesktopManifest = {
    builtAt: new Date().toISOString(),
    serverUrl,
    files: TARGETS.flatMap((target) => entries.get(target.id) ?? []),
  };
  // Written last and atomically: the server reloads it when it changes.
  await writeFile(path.join(outDir, "manifest.json.tmp"), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(path.join(outDir, "manifest.json.tmp"), path.join(outDir, "manifest.json"));
  return manifest;
}

/** Reads `--target` (repeatable or comma-separated), `--compress`, `--server-url`, `--entry`, `--out`, `--force`. */
export function parseBuildArgs(args: readonly string[]): BuildOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      target: { type: "string", multiple: true },
      compress: { type: "string" },
      "server-url": { type: "string" },
      entry: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean" },
    },
  });
  const names = (values.target ?? []).flatMap((value) => value.split(",")).filter(Boolean);
  const targets =
    names.length === 0
      ? TARGETS
      : names.map((name) => {
          const target = findTarget(name);
          if (!target) throw new Error(`Cible inconnue : ${name} (attendu : ${TARGETS.map((t) => t.id).join(", ")})`);
          return target;
        });
  const compress = values.compress ?? "full";
  if (compress !== "full" && compress !== "fast" && compress !== "none") {
    throw new Error(`--compress ${compress} : attendu full, fast ou none`);
  }
  return {
    targets,
    compress,
    serverUrl: values["server-url"],
    entry: values.entry ? path.resolve(values.entry) : undefined,
    outDir: values.out ? path.resolve(values.out) : undefined,
    force: values.force ?? false,
  };
}

if (import.meta.main) {
  try {
    const started = performance.now();
    await buildDesktop(parseBuildArgs(process.argv.slice(2)));
    console.log(`Logiciel de bureau construit en ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
