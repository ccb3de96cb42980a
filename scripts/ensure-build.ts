/**
 * `npm start` builds only when no current build exists (issue 2).
 *
 * "Current" = the build was made from the same sources and lockfile. A SHA-256
 * of all of them is stored in `build/.build-hash` after a successful build.
 * The address (PUBLIC_URL, PORT, HOST) is not part of it: the server fills the
 * origin in at run time (issue 29), so a new address needs a restart only.
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

function walk(target: string, files: string[]) {
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) {
    for (const name of readdirSync(target).sort()) walk(path.join(target, name), files);
  } else if (!target.endsWith(".test.ts") && !target.endsWith(".test.tsx")) {
    files.push(target);
  }
}

/** Hash of everything the build depends on. */
export function sourceHash(): string {
  const hash = createHash("sha256");
  const files: string[] = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
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
  const wanted = sourceHash();
  const current = existsSync(HASH_FILE) ? readFileSync(HASH_FILE, "utf8").trim() : "";
  const force = options.force === true;
  if (!force && current === wanted && existsSync(path.join(root, "build", "server", "index.js"))) return;
  if (!force) console.log("Construction du site (aucune construction à jour)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "react-router"), ["build"], {
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
  writeFileSync(HASH_FILE, `${wanted}\n`);
}

if (import.meta.main) ensureBuild({ force: process.argv.includes("--force") });
