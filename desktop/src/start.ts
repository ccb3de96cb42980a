/**
 * The desktop app proper, as `main.ts` starts it when this process is not the
 * window (issue 27): the launch context, the interface (`views/choose.ts`:
 * window, zenity dialogs or terminal; a terminal is opened for a
 * double-click only when neither window nor dialogs can be shown),
 * `runApp`, then the exit. Imported dynamically by `main.ts`, so that the
 * window process never loads any of this.
 */
import path from "node:path";
import { runApp } from "./app.ts";
import { createCapturer } from "./capture/capturer.ts";
import { createJpegEncoder } from "./capture/jpeg.ts";
import { DEFAULT_PROGRAM_NAME } from "./cli.ts";
import { embeddedServer, readFileTail } from "./embedded-address.ts";
import { createPlatformInjector } from "./input/platform.ts";
import { loadKoffi } from "./input/koffi.ts";
import { nativeFolder } from "./native/private-folder.ts";
import {
  relaunchInTerminal,
  standardInput,
  stdinLeadsNowhere,
  waitForEnter,
  windowClosesWithApp,
  windowCommand,
  type LaunchContext,
} from "./launcher.ts";
import { type ChooseContext, describeInterface, openView } from "./views/choose.ts";
import type { InterfaceKind } from "./views/view.ts";
import { WINDOW_FLAG } from "./views/window-state.ts";

declare const __ATELIER_ADDRESS_ZONE__: string | undefined;

/**
 * The server address when `--server` is not given (issue 29, decision 023): `ATELIER_SERVER`, else what
 * the server wrote into this download (a trailer after the executable, or the bundle's zone, which
 * scripts/build-desktop.ts defines as `__ATELIER_ADDRESS_ZONE__`). Under Node, `process.execPath` is
 * node itself: no trailer, no zone.
 */
function defaultServer(): string | undefined {
  // `typeof` keeps an undefined global from throwing when nothing was defined at build time.
  const zone = typeof __ATELIER_ADDRESS_ZONE__ === "string" ? __ATELIER_ADDRESS_ZONE__ : undefined;
  const found = embeddedServer(process.env, readFileTail(process.execPath), zone);
  if (found.warning) process.stderr.write(`${found.warning}\n`);
  return found.server;
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

// Issue 36 §1: what a crashed or killed run left in the temporary folder goes first.
nativeFolder().sweepLeftovers();

// A terminal closed by the customer (EIO) or a reader gone (EPIPE) fails the next write. Unheard, that error
// ends the app at once, before it leaves the session, releases held keys and removes partial files; what
// was being written had nobody left to read it.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});

// Issue 36 §3: a pipe on Windows is read through file descriptor 0 (Bun's own stdin fails on it).
const stdin = standardInput(process.platform);

const launch: LaunchContext = {
  platform: process.platform,
  env: process.env,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stdinFromNowhere: stdinLeadsNowhere(Boolean(process.stdin.isTTY)),
  execPath: process.execPath,
  argv: process.argv,
};

const choose: ChooseContext = {
  platform: process.platform,
  env: process.env,
  windowCommand: windowCommand(launch, path.join(import.meta.dirname, "main.ts"), WINDOW_FLAG),
  stdin,
  stdout: process.stdout,
  stderr: process.stderr,
};
let chosen: InterfaceKind = "terminal";

// The downloaded file's own name, so that --help shows a command the customer can type.
const launched = path.basename(process.execPath);
const programName = /^atelier-assistance/i.test(launched) ? launched : DEFAULT_PROGRAM_NAME;

// Issue 36 §4: a process replaced by its elevated copy exits at once, without waiting for Entrée.
let replaced = false;
const code = await runApp({
  args: process.argv.slice(2),
  defaultServer: defaultServer(),
  stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  createInjector: (onWarning) => createPlatformInjector(onWarning),
  createPicture: async () => ({ capturer: await createCapturer(), encoder: await createJpegEncoder() }),
  columns: () => process.stdout.columns || 80,
  programName,
  openView: async (forced, hooks) => {
    const view = await openView(forced, choose, hooks);
    // Only the terminal needs one: a double-click with neither window nor dialogs opens a terminal (issue 26).
    if (view.kind === "terminal" && relaunchInTerminal(launch)) process.exit(0);
    chosen = view.kind;
    return view;
  },
  describeInterface: (forced) => describeInterface(forced, choose),
  onReplaced: () => (replaced = true),
}).catch((error: unknown) => {
  process.stderr.write(`Erreur inattendue : ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
if (!replaced && chosen === "terminal" && windowClosesWithApp(launch, await windowsConsoleProcesses()))
  await waitForEnter(stdin, process.stdout);
// Exit now: nothing (socket, timers, terminal) may keep the app running after the session.
process.exit(code);
