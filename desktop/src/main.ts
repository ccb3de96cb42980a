/**
 * Entry point of the desktop support app (issue 15), the file given to
 * `bun build --compile` (one executable per system) and runnable as is with
 * Node 24 or Bun: `node desktop/src/main.ts --help`.
 *
 * Built-in server address: the packager defines the global
 * `__ATELIER_SERVER_URL__` at build time from `PUBLIC_URL`, e.g.
 *   bun build desktop/src/main.ts --compile --target=bun-linux-x64 \
 *     --define '__ATELIER_SERVER_URL__="https://atelier.example"' --outfile …
 * Without it (tests, `node desktop/src/main.ts`) there is no default and the
 * app asks for `--server` in French. `--server` always wins.
 *
 * TLS: the runtime's normal certificate checks, with no switch to turn them
 * off. Tests trust their own CA through NODE_EXTRA_CA_CERTS (Node and Bun).
 * Plain http:// is accepted for localhost only.
 *
 * Runtime needs: koffi's native part (`@koromix/koffi-<os>-<arch>`), and per
 * system: Linux libX11.so.6 + libXtst.so.6 (+ libXrandr.so.2, optional);
 * Windows user32.dll; macOS CoreGraphics, CoreFoundation and
 * ApplicationServices frameworks. See desktop/README.md.
 */
import { runApp } from "./app.ts";
import { createPlatformInjector } from "./input/platform.ts";

declare const __ATELIER_SERVER_URL__: string | undefined;

/** The address built in at download time, or undefined (see the module comment). */
function builtInServer(): string | undefined {
  // `typeof` keeps an undefined global from throwing when nothing was defined at build time.
  return typeof __ATELIER_SERVER_URL__ === "string" && __ATELIER_SERVER_URL__ ? __ATELIER_SERVER_URL__ : undefined;
}

const code = await runApp({
  args: process.argv.slice(2),
  defaultServer: builtInServer(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  createInjector: (onWarning) => createPlatformInjector(onWarning),
}).catch((error: unknown) => {
  process.stderr.write(`Erreur inattendue : ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
// Exit now: nothing (socket, timers, terminal) may keep the app running after the session.
process.exit(code);
