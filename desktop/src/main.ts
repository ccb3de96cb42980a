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
 * Started without a terminal (a double-click in a Linux file manager), it
 * opens one and runs there; in a window that closes with it, it waits for
 * Entrée before exiting (`launcher.ts`, issue 26).
 *
 * Runtime needs: koffi's native part (`@koromix/koffi-<os>-<arch>`), the
 * embedded libjpeg-turbo (issue 26), and per system: Linux libX11.so.6 +
 * libXtst.so.6 (+ libXrandr.so.2, libXext.so.6 for XShm, libXfixes.so.3 for
 * the pointer in the picture, all optional);
 * Windows user32.dll; macOS CoreGraphics, CoreFoundation and
 * ApplicationServices frameworks. See desktop/README.md.
 */
import path from "node:path";
import { runApp } from "./app.ts";
import { createCapturer } from "./capture/capturer.ts";
import { createJpegEncoder } from "./capture/jpeg.ts";
import { DEFAULT_PROGRAM_NAME } from "./cli.ts";
import { createPlatformInjector } from "./input/platform.ts";
import { loadKoffi } from "./input/koffi.ts";
import {
  relaunchInTerminal,
  stdinLeadsNowhere,
  waitForEnter,
  windowClosesWithApp,
  type LaunchContext,
} from "./launcher.ts";

declare const __ATELIER_SERVER_URL__: string | undefined;

/** The address built in at download time, or undefined (see the module comment). */
function builtInServer(): string | undefined {
  // `typeof` keeps an undefined global from throwing when nothing was defined at build time.
  return typeof __ATELIER_SERVER_URL__ === "string" && __ATELIER_SERVER_URL__ ? __ATELIER_SERVER_URL__ : undefined;
}

/** Windows: how many processes share this console (1: Windows opened it for this double-clicked app). */
async function windowsConsoleProcesses(): Promise<number | null> {
  if (process.platform !== "win32") return null;
  try {
    const koffi = await loadKoffi();
    const kernel32 = koffi.load("kernel32.dll");
    const list = kernel32.func("uint32 __stdcall GetConsoleProcessList(_Out_ uint32 *list, uint32 count)");
    return Number(list(new Uint32Array(4), 4));
  } catch {
    return null;
  }
}

const launch: LaunchContext = {
  platform: process.platform,
  env: process.env,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stdinFromNowhere: stdinLeadsNowhere(Boolean(process.stdin.isTTY)),
  execPath: process.execPath,
  argv: process.argv,
};
if (relaunchInTerminal(launch)) process.exit(0);

// The downloaded file's own name, so that --help shows a command the customer can type.
const launched = path.basename(process.execPath);
const programName = /^atelier-assistance/i.test(launched) ? launched : DEFAULT_PROGRAM_NAME;

const code = await runApp({
  args: process.argv.slice(2),
  defaultServer: builtInServer(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  createInjector: (onWarning) => createPlatformInjector(onWarning),
  createPicture: async () => ({ capturer: await createCapturer(), encoder: await createJpegEncoder() }),
  columns: () => process.stdout.columns || 80,
  programName,
}).catch((error: unknown) => {
  process.stderr.write(`Erreur inattendue : ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
if (windowClosesWithApp(launch, await windowsConsoleProcesses())) await waitForEnter(process.stdin, process.stdout);
// Exit now: nothing (socket, timers, terminal) may keep the app running after the session.
process.exit(code);
