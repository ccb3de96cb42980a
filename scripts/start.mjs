// @ts-check
/**
 * `npm start` in one Node process (issue 16 §3; issue 30 §2: ready in about a second).
 * Before, `npm start` chained four Node processes (version check, build
 * check, desktop build check, server), each paying Node's start and its
 * module loading; the desktop check alone held the start for ~0.3 s.
 *
 * JavaScript, not TypeScript, as `build-state.mjs`: with a current build no
 * `.ts` file loads, which saves the ~0.1 s Node's type stripper takes to load
 * (docs/decisions/030).
 *
 * 1. Fails fast on anything but Node 24 (`check-node.mjs`).
 * 2. Caches V8's compiled code in `node_modules/.cache/node-compile`
 *    (`module.enableCompileCache`): loading the server's modules then costs
 *    about a third less CPU from the second start on.
 * 3. Builds the site when no current build exists (`isBuildCurrent`, then
 *    `ensure-build.ts`).
 * 4. Runs the server in this process (started by `package.json` with
 *    `SERVER_NODE_FLAGS`): `server/index.ts` bundled in `build/atelier-server.mjs`
 *    (docs/decisions/027), made by step 3 when the server's sources changed.
 * 5. Once the server listens, starts the desktop app's build check
 *    (`build-desktop.ts`) in a child process, instead of before the server:
 *    the server re-reads the downloads manifest when it changes, so a build
 *    finishing later is offered at once (each target as soon as it is ready;
 *    the builds do not depend on PUBLIC_URL, issue 29, decision 023). The
 *    child is stopped with the server.
 */
import "./check-node.mjs";
import { spawn } from "node:child_process";
import { enableCompileCache } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BUILD_FILES, isBuildCurrent } from "./build-state.mjs";

const root = path.resolve(import.meta.dirname, "..");
enableCompileCache(path.join(root, "node_modules", ".cache", "node-compile"));

if (!isBuildCurrent()) {
  const { ensureBuild } = await import("./ensure-build.ts");
  ensureBuild();
}

// The server bundled (docs/decisions/027): about 1 s less to load than its ~1 500 modules.
await import(pathToFileURL(BUILD_FILES.serverEntry).href);

// After the server is ready: its start does not share the CPU with this check (2 cores on a small server).
const desktop = spawn(process.execPath, [path.join(root, "scripts", "build-desktop.ts")], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
});
desktop.once("exit", (code, signal) => {
  if (code !== 0 && signal === null) {
    console.log("Logiciel de bureau non construit : le site fonctionne sans ses téléchargements.");
  }
});
process.once("exit", () => {
  if (desktop.exitCode === null && desktop.signalCode === null) desktop.kill();
});
