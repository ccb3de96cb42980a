// @ts-check
/**
 * Is the build current? The hashes `npm start` compares before it serves (issue 2; issue 30 §2).
 *
 * "Current" = the build was made from the same sources and lockfile: a SHA-256 of all of them is kept in
 * `build/.build-hash` (the site) and `build/.server-hash` (the server's bundle, which also covers
 * `server/`, `database/` and its bundler script). The address (PUBLIC_URL, PORT, HOST) is not part of
 * them (issue 29).
 *
 * JavaScript, not TypeScript: `npm start` imports this before anything else, and the first `.ts` file a
 * process loads costs ~0.1 s of Node's type stripper (docs/decisions/030). Checked by `tsc` (`@ts-check`).
 *
 * Reading and hashing the ~1 000 input files takes ~45 ms; `isBuildCurrent` first compares their sizes
 * and modification times with those recorded at the last check (`build/.build-stat`), as `git status`
 * does, and hashes the contents only when one of them moved.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** What the site's build is made of. */
export const SITE_INPUTS = [
  "app",
  "public",
  "vite",
  "react-router.config.ts",
  "vite.config.ts",
  "package-lock.json",
  "tsconfig.json",
  "scripts/precompress-assets.ts",
];
/** What the server's bundle is made of beyond the site's inputs (it bundles `app/` modules too). */
export const SERVER_INPUTS = ["server", "database", "scripts/bundle-server.ts"];

/** Where the hashes and their outputs live. */
export const BUILD_FILES = {
  siteHash: path.join(root, "build", ".build-hash"),
  siteOutput: path.join(root, "build", "server", "index.js"),
  serverHash: path.join(root, "build", ".server-hash"),
  /** The bundle `npm start` runs (also `SERVER_BUNDLE` of `bundle-server.ts`). */
  serverEntry: path.join(root, "build", "atelier-server.mjs"),
  stat: path.join(root, "build", ".build-stat"),
};

/**
 * Every input file under `inputs` (relative to the project), sorted, tests left out.
 * @param {readonly string[]} inputs
 * @returns {string[]} absolute paths
 */
function inputFiles(inputs) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} target */
  const walk = (target) => {
    if (!existsSync(target)) return;
    if (statSync(target).isDirectory()) {
      for (const name of readdirSync(target).sort()) walk(path.join(target, name));
    } else if (!target.endsWith(".test.ts") && !target.endsWith(".test.tsx")) {
      files.push(target);
    }
  };
  for (const input of inputs) walk(path.join(root, input));
  return files;
}

/**
 * SHA-256 (hex) of the names and contents of everything under `inputs`.
 * @param {readonly string[]} [inputs] default: the site's
 */
export function sourceHash(inputs = SITE_INPUTS) {
  const hash = createHash("sha256");
  for (const file of inputFiles(inputs)) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

/**
 * The hashes a current build carries: the site's, and the server bundle's (the site's plus the server's).
 * @returns {{ site: string, server: string }}
 */
export function wantedHashes() {
  const site = sourceHash();
  return { site, server: createHash("sha256").update(site).update(sourceHash(SERVER_INPUTS)).digest("hex") };
}

/** SHA-256 of every input's name, size and modification time: cheap, moves with any edit. */
function statSignature() {
  const hash = createHash("sha256");
  for (const file of inputFiles([...SITE_INPUTS, ...SERVER_INPUTS])) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest("hex");
}

/**
 * @param {string} file a hash file (`BUILD_FILES.siteHash`, `.serverHash`)
 * @returns {string | undefined} its content, trimmed, or undefined when it is missing
 */
export function readLine(file) {
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

/**
 * True when both the site's build and the server's bundle exist and match the sources. Records the inputs'
 * sizes and times after a content check that found them current, so the next start skips the hashing.
 * @returns {boolean}
 */
export function isBuildCurrent() {
  if (!existsSync(BUILD_FILES.siteOutput) || !existsSync(BUILD_FILES.serverEntry)) return false;
  const site = readLine(BUILD_FILES.siteHash);
  const server = readLine(BUILD_FILES.serverHash);
  if (site === undefined || server === undefined) return false;
  const signature = statSignature();
  if (readLine(BUILD_FILES.stat) === `${signature} ${site} ${server}`) return true;
  const wanted = wantedHashes();
  if (wanted.site !== site || wanted.server !== server) return false;
  recordStat(signature, wanted);
  return true;
}

/**
 * Records the inputs' signature beside the hashes they were found to match (after a build, or a check).
 * @param {string} [signature] default: computed now
 * @param {{ site: string, server: string }} [hashes] default: computed now
 */
export function recordStat(signature = statSignature(), hashes = wantedHashes()) {
  try {
    writeFileSync(BUILD_FILES.stat, `${signature} ${hashes.site} ${hashes.server}\n`);
  } catch {
    // A read-only project folder: every start hashes the contents, as before.
  }
}
