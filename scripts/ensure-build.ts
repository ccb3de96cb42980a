/**
 * `npm start` builds only when no current build exists (issue 2).
 *
 * The site's build is `react-router build`, then `precompress-assets.ts` (the `.br` and `.gz` copies
 * of its scripts and styles, issue 39 §1).
 *
 * "Current" (`build-state.mjs`) = the build was made from the same sources and
 * lockfile. A SHA-256 of all of them is stored in `build/.build-hash` after a
 * successful build. The address (PUBLIC_URL, PORT, HOST) is not part of it:
 * the server fills the origin in at run time (issue 29), so a new address
 * needs a restart only.
 *
 * The server's bundle (`build/atelier-server.mjs`, `bundle-server.ts`,
 * docs/decisions/027) has its own hash, `build/.server-hash`, of the server's
 * sources too: a change to `server/` rebundles it (about 2 s), not the site.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BUILD_FILES, isBuildCurrent, readLine, recordStat, wantedHashes } from "./build-state.mjs";

const root = path.resolve(import.meta.dirname, "..");
/** The bundle `npm start` runs (also `SERVER_BUNDLE` of `bundle-server.ts`, which this file does not import: Vite). */
export const SERVER_ENTRY = BUILD_FILES.serverEntry;

/**
 * Builds the site unless a current build exists (`force`: always), with
 * `react-router build` in a child process. Used by `npm start`
 * (`scripts/start.mjs`, when `isBuildCurrent()` says no) and `npm run build`.
 * Exits the process with the build's code when the build fails.
 */
export function ensureBuild(options: { force?: boolean } = {}): void {
  const force = options.force === true;
  if (!force && isBuildCurrent()) return;
  const wanted = wantedHashes();
  if (force || readLine(BUILD_FILES.siteHash) !== wanted.site || !existsSync(BUILD_FILES.siteOutput)) {
    if (!force) console.log("Construction du site (aucune construction à jour)…");
    run(path.join(root, "node_modules", ".bin", "react-router"), ["build"]);
    // Issue 39 §1: scripts and styles compressed once here, never again per request.
    run(process.execPath, [path.join(root, "scripts", "precompress-assets.ts")]);
    writeFileSync(BUILD_FILES.siteHash, `${wanted.site}\n`);
  }
  if (force || readLine(BUILD_FILES.serverHash) !== wanted.server || !existsSync(BUILD_FILES.serverEntry)) {
    run(process.execPath, [path.join(root, "scripts", "bundle-server.ts")]);
    writeFileSync(BUILD_FILES.serverHash, `${wanted.server}\n`);
  }
  recordStat();
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
