/**
 * `npm run build:desktop [-- --target linux-x64 …] [--compress full|fast|none] [--force]` (issue 15,
 * "Packaging", docs/decisions/011): one executable per system with `bun build --compile`, into
 * `build/desktop/`, with a `.br` and a `.gz` copy of each and `manifest.json` for the server
 * (`server/downloads.ts`).
 *
 * - Each target's Bun runtime and koffi native part come from the npm registry (desktop-targets.ts);
 *   Bun compiles with `executablePath`, so it never downloads anything.
 * - Issue 29 (docs/decisions/023): no server address is built in, so the build does not depend on
 *   PUBLIC_URL, PORT or HOST. The server writes its own address into each download
 *   (`server/download-splice.ts`): after the file (a trailer), or, for a signed Mach-O (macOS Apple
 *   Silicon), into the zone string `__ATELIER_ADDRESS_ZONE__` defined here, whose offset and code-page
 *   hash slots the manifest lists. The `.br`/`.gz` copies hold the bytes before that point, flushed.
 * - Each target is offered as soon as it is ready: the manifest is rewritten (and `build/desktop/`
 *   linked) after every target, not once all four are compressed.
 * - A target is rebuilt only when its inputs changed (desktop sources, the shared protocol, the
 *   lockfile, these scripts, the version, the compression): a hash of them is kept in
 *   `node_modules/.cache/desktop-build/out/.stamps/<target>.json`, beside the files themselves, which
 *   `build/desktop/` links to (a site build deletes `build/`; the next run restores the links at
 *   once). `--force` rebuilds anyway.
 * - `--compress fast` (brotli 5, gzip 6: a few seconds) is for tests; `full` (the default) is what
 *   customers download.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import lockfile from "proper-lockfile";
import { emptyAddressZone } from "#app/remote-support/download-address.ts";
import type { AddressPlacement } from "#server/download-splice.ts";
import {
  DOWNLOAD_ENCODINGS,
  parseManifest,
  type DesktopManifest,
  type DesktopManifestEntry,
} from "#server/downloads.ts";
import type { BundleJob } from "./desktop-bundle.ts";
import { COMPRESSION, compressFile, type CompressionLevel } from "./desktop-compress.ts";
import { checkMachOSignature, codePageSlots, removeMachOSignature } from "./macho.ts";
import { CACHE_DIR, findTarget, hostBun, ROOT, targetFiles, TARGETS, type DesktopTarget } from "./desktop-targets.ts";

export const DESKTOP_OUT_DIR = path.join(ROOT, "build", "desktop");
export const DESKTOP_ENTRY = path.join(ROOT, "desktop", "src", "main.ts");
const VERSION_FILE = path.join(ROOT, "desktop", "src", "version.ts");
const FILE_PREFIX = "atelier-assistance";

export type BuildOptions = {
  targets: readonly DesktopTarget[];
  outDir?: string;
  entry?: string;
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
    "app/remote-support/download-address.ts",
    "package-lock.json",
    "scripts/build-desktop.ts",
    "scripts/desktop-bundle.ts",
    "scripts/desktop-compress.ts",
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

/**
 * Issue 29: where the server will write its address into this build (`server/download-splice.ts`). A
 * signed Mach-O (macOS Apple Silicon) must keep its signature as the end of the file (`codesign`'s strict
 * validation, hence Gatekeeper, refuses data after it): the address goes into the bundle's zone, and the
 * hash slots of the page(s) it lies on are listed; the zone must then be there exactly once (a check
 * that the bundler kept the string whole). Any other file gets a trailer.
 */
function addressPlacement(content: Buffer, target: DesktopTarget): AddressPlacement {
  if (target.platform !== "macos" || checkMachOSignature(content) === null) {
    return { method: "trailer", spliceAt: content.length };
  }
  const zone = Buffer.from(emptyAddressZone(), "latin1");
  const offset = content.indexOf(zone);
  if (offset < 0 || content.indexOf(zone, offset + 1) >= 0) {
    throw new Error(`${target.id} : zone d'adresse absente ou en double dans l'exécutable`);
  }
  const pageHashes = codePageSlots(content, offset, zone.length);
  return { method: "zone", spliceAt: offset, zone: { offset, length: zone.length }, pageHashes };
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
    // Issue 29: each target is published as soon as it is ready, not once all of them are.
    return await buildLocked(options, workDir, async (manifest) => {
      if (workDir !== outDir) await publish(manifest, workDir, outDir);
    });
  } finally {
    await release();
  }
}

/** Links (or copies, across file systems) the manifest's files into `outDir`, then the manifest; older builds there go. */
async function publish(manifest: DesktopManifest, workDir: string, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const wanted = new Set<string>();
  for (const entry of manifest.files) {
    wanted.add(entry.fileName);
    for (const { name, suffix } of DOWNLOAD_ENCODINGS) {
      if (entry.transfer[name] !== undefined) wanted.add(entry.fileName + suffix);
    }
  }
  // The manifest last: the server never reads an entry before its files are in place.
  wanted.add("manifest.json");
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

/** Writes `manifest.json` atomically (the server reloads it when replaced), entries in TARGETS' order. */
async function writeManifest(
  outDir: string,
  entries: ReadonlyMap<string, DesktopManifestEntry>,
): Promise<DesktopManifest> {
  const manifest: DesktopManifest = {
    builtAt: new Date().toISOString(),
    files: TARGETS.flatMap((target) => entries.get(target.id) ?? []),
  };
  await writeFile(path.join(outDir, "manifest.json.tmp"), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(path.join(outDir, "manifest.json.tmp"), path.join(outDir, "manifest.json"));
  return manifest;
}

/** Builds the asked targets into `outDir`; `ready` gets the manifest after each target (built or current). */
async function buildLocked(
  options: BuildOptions,
  outDir: string,
  ready: (manifest: DesktopManifest) => Promise<void>,
): Promise<DesktopManifest> {
  const entry = options.entry ?? DESKTOP_ENTRY;
  const compress = options.compress ?? "full";
  const log = options.log ?? ((line: string) => console.log(line));
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
    // Issue 29: nothing of the server (PUBLIC_URL, PORT, HOST) is an input.
    const settings = { version, compress, entry: path.relative(ROOT, entry) };
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
      await ready(await writeManifest(outDir, entries));
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
      define: { __ATELIER_ADDRESS_ZONE__: JSON.stringify(emptyAddressZone()) },
      bytecode: false,
    });
    if (target.platform === "macos") await fixMacSignature(partial, target);
    const address = addressPlacement(await readFile(partial), target);
    await rename(partial, file);
    const compiled = performance.now();
    const transfer: DesktopManifestEntry["transfer"] =
      compress === "none" ? {} : await compressFile(file, COMPRESSION[compress], address.spliceAt);
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
      address,
      buildSeconds: {
        compile: Math.round(compiled - started) / 1000,
        compress: Math.round(performance.now() - compiled) / 1000,
      },
    };
    entries.set(target.id, built);
    await writeFile(stampFile, `${JSON.stringify({ hash, entry: built }, null, 2)}\n`);
    await ready(await writeManifest(outDir, entries));
    const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : `${(bytes / 1e6).toFixed(1)} Mo`);
    log(
      `${target.id} : ${fileName} ${mb(built.bytes)} (br ${mb(transfer.br)}, gzip ${mb(transfer.gzip)}), ` +
        `compilé en ${built.buildSeconds?.compile} s, compressé en ${built.buildSeconds?.compress} s`,
    );
  }

  // Also when no target was asked: the manifest then only drops the entries whose files went.
  const manifest = await writeManifest(outDir, entries);
  await ready(manifest);
  return manifest;
}

/** Reads `--target` (repeatable or comma-separated), `--compress`, `--entry`, `--out`, `--force`. */
export function parseBuildArgs(args: readonly string[]): BuildOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      target: { type: "string", multiple: true },
      compress: { type: "string" },
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
