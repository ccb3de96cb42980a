/**
 * `npm start` builds only when no current build exists (issue 2).
 *
 * "Current" = the build was made from the same sources and lockfile. A SHA-256
 * of all of them is stored in `build/.build-hash` after a successful build.
 * The address (PUBLIC_URL, PORT, HOST) is not part of it: the server fills the
 * origin in at run time (issue 29), so a new address needs a restart only.
 *
 * The server's bundle (`build/atelier-server.mjs`, `bundle-server.ts`,
 * docs/decisions/027) has its own hash, `build/.server-hash`, of the server's
 * sources too: a change to `server/` rebundles it (about 2 s), not the site.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const INPUTS = [
  "app",
  "public",
  "vite",
  "react-router.config.ts",
  "vite.config.ts",
  "package-lock.json",
  "tsconfig.json",
];
const HASH_FILE = path.join(root, "build", ".build-hash");
/** What the server's bundle is made of beyond the site's inputs (it bundles `app/` modules too). */
const SERVER_INPUTS = ["server", "database", "scripts/bundle-server.ts"];
const SERVER_HASH_FILE = path.join(root, "build", ".server-hash");
/** The bundle `npm start` runs (also `SERVER_BUNDLE` of `bundle-server.ts`, which this file does not import: Vite). */
export const SERVER_ENTRY = path.join(root, "build", "atelier-server.mjs");

function walk(target: string, files: string[]) {
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) {
    for (const name of readdirSync(target).sort()) walk(path.join(target, name), files);
  } else if (!target.endsWith(".test.ts") && !target.endsWith(".test.tsx")) {
    files.push(target);
  }
}

/** Hash of everything the build (default) or the server's bundle depends on. */
export function sourceHash(inputs: readonly string[] = INPUTS): string {
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const input of inputs) walk(path.join(root, input), files);
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

/**
 * Builds the site unless a current build exists (`force`: always), with
 * `react-router build` in a child process. Used by `npm start`
 * (`scripts/start.ts`, in its own process) and `npm run build`.
 * Exits the process with the build's code when the build fails.
 */
export function ensureBuild(options: { force?: boolean } = {}): void {
  const force = options.force === true;
  const wanted = sourceHash();
  if (force || !isCurrent(HASH_FILE, wanted, path.join(root, "build", "server", "index.js"))) {
    if (!force) console.log("Construction du site (aucune construction à jour)…");
    run(path.join(root, "node_modules", ".bin", "react-router"), ["build"]);
    writeFileSync(HASH_FILE, `${wanted}\n`);
  }
  const wantedServer = createHash("sha256").update(wanted).update(sourceHash(SERVER_INPUTS)).digest("hex");
  if (force || !isCurrent(SERVER_HASH_FILE, wantedServer, SERVER_ENTRY)) {
    run(process.execPath, [path.join(root, "scripts", "bundle-server.ts")]);
    writeFileSync(SERVER_HASH_FILE, `${wantedServer}\n`);
  }
}

function isCurrent(hashFile: string, wanted: string, output: string): boolean {
  return existsSync(hashFile) && readFileSync(hashFile, "utf8").trim() === wanted && existsSync(output);
}

/** Runs a build step in a child process; exits this process with its code when it fails. */
function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    // node_modules/.bin first: react-router's `#!/usr/bin/env node` must find the project's Node 24.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    },
  });
  if (result.status !== 0) {
    console.error("La construction a échoué.");
    process.exit(result.status ?? 1);
  }
}

if (import.meta.main) ensureBuild({ force: process.argv.includes("--force") });
