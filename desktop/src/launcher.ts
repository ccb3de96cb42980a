/**
 * How the customer started the app (issue 26, "double-clicking the
 * downloaded app shows nothing and exits"): a file manager starts a Linux
 * executable with no terminal at all, and Windows gives a double-clicked
 * console program a window that closes the moment it exits.
 *
 * - Linux, no terminal on either side and a graphical session: the app
 *   starts itself again inside the first terminal emulator found
 *   (`x-terminal-emulator`, GNOME, Konsole, Xfce, MATE, LXTerminal, xterm),
 *   marked with `ATELIER_OWN_TERMINAL=1`, and this copy exits. Without any
 *   terminal, `zenity` (or `kdialog`) says how to start it.
 * - In that window, or in a console window Windows made for this process
 *   alone, the app waits for Entrée before it exits, so its last words can
 *   be read.
 * macOS opens Terminal for a double-clicked executable and keeps its window.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, createReadStream, fstatSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";

/** Set in the environment of the copy started inside a terminal emulator. */
export const OWN_TERMINAL_ENV = "ATELIER_OWN_TERMINAL";

/** Terminal emulators tried in order, with the argument that runs a command. */
export const TERMINALS: readonly (readonly [string, ...string[]])[] = [
  ["x-terminal-emulator", "-e"],
  ["gnome-terminal", "--"],
  ["konsole", "-e"],
  ["xfce4-terminal", "-x"],
  ["mate-terminal", "-x"],
  ["lxterminal", "-e"],
  ["xterm", "-e"],
];

/** What the launcher needs of the process (tests pass their own). */
export type LaunchContext = {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /**
   * Standard input leads nowhere: closed, or a character device that is not a terminal (`/dev/null`, what a file
   * manager gives). A pipe, a socket or a file means another program or a script runs the app: left as it is.
   */
  stdinFromNowhere: boolean;
  /** `process.execPath` and `process.argv`. */
  execPath: string;
  argv: readonly string[];
};

/** Whether file descriptor 0 leads nowhere (see `LaunchContext.stdinFromNowhere`). */
export function stdinLeadsNowhere(isTTY: boolean): boolean {
  if (isTTY) return false;
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true;
  }
}

/**
 * Standard input as a stream the app can read (issue 36 §3). Bun's Windows `process.stdin` fails with
 * « EBADF: bad file descriptor, open » at its first read when standard input is a pipe (seen under Wine 8,
 * where a launcher or a script gives one), while a plain stream over file descriptor 0 reads the same
 * bytes. A console (a terminal) keeps `process.stdin`: raw mode and Ctrl+C need it. No input at all (a
 * closed descriptor) gives a stream that ends at once, so the first question is answered « nothing ».
 */
export function standardInput(
  platform: NodeJS.Platform,
  stdin: NodeJS.ReadStream = process.stdin,
): NodeJS.ReadableStream & { isTTY?: boolean } {
  if (platform !== "win32" || stdin.isTTY) return stdin;
  const stream = createReadStream("", { fd: 0, autoClose: false });
  // An invalid or closed descriptor: the same as input that ended.
  stream.on("error", () => stream.push(null));
  return stream;
}

/** The first executable named `name` on `PATH`, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const folder of (env.PATH ?? "").split(path.delimiter)) {
    if (!folder) continue;
    const file = path.join(folder, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here: the next folder.
    }
  }
  return null;
}

/**
 * The command that starts this very app again with the same arguments: the
 * executable alone when compiled (Bun's `argv[1]` is then its embedded entry),
 * else the runtime and the script.
 */
export function selfCommand(context: Pick<LaunchContext, "execPath" | "argv">): string[] {
  const [, entry = "", ...rest] = context.argv;
  const compiled = entry.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/i.test(entry);
  return compiled ? [context.execPath, ...rest] : [context.execPath, entry, ...rest];
}

/**
 * Linux started without a terminal (a file manager's double-click) in a
 * graphical session: the terminal command to run instead, or null when the
 * app already has a terminal, runs elsewhere, or was started in one of ours.
 */
export function terminalRelaunch(context: LaunchContext): { command: string[] } | { missing: true } | null {
  if (context.platform !== "linux" || context.stdinIsTTY || context.stdoutIsTTY || !context.stdinFromNowhere)
    return null;
  if (context.env[OWN_TERMINAL_ENV] === "1") return null;
  if (!context.env.DISPLAY && !context.env.WAYLAND_DISPLAY) return null;
  for (const [name, flag] of TERMINALS) {
    const file = findOnPath(name, context.env);
    if (file) return { command: [file, flag!, ...selfCommand(context)] };
  }
  return { missing: true };
}

const NO_TERMINAL_TEXT =
  "Ce logiciel s'utilise dans un terminal, et aucun terminal n'a été trouvé sur cet ordinateur. " +
  "Ouvrez un terminal et lancez-y le fichier téléchargé.";

/**
 * Starts the terminal (detached: it outlives this copy) or, without one, says
 * so in a dialog. @returns true when this copy should exit now.
 */
export function relaunchInTerminal(context: LaunchContext): boolean {
  const plan = terminalRelaunch(context);
  if (!plan) return false;
  if ("missing" in plan) {
    const dialog = findOnPath("zenity", context.env)
      ? ["zenity", "--error", "--title=Assistance à distance", `--text=${NO_TERMINAL_TEXT}`]
      : findOnPath("kdialog", context.env)
        ? ["kdialog", "--error", NO_TERMINAL_TEXT]
        : null;
    if (dialog) spawn(dialog[0]!, dialog.slice(1), { detached: true, stdio: "ignore" }).unref();
    return true;
  }
  const [file, ...args] = plan.command;
  spawn(file!, args, { detached: true, stdio: "ignore", env: { ...context.env, [OWN_TERMINAL_ENV]: "1" } }).unref();
  return true;
}

/**
 * Whether the window closes with the app: a terminal we opened ourselves, or
 * on Windows a console that holds this process alone (a double-click).
 * `consoleProcesses`: how many processes share the Windows console (null elsewhere or unknown).
 */
export function windowClosesWithApp(context: LaunchContext, consoleProcesses: number | null): boolean {
  if (context.env[OWN_TERMINAL_ENV] === "1") return true;
  return context.platform === "win32" && consoleProcesses === 1;
}

/** Waits until the customer presses Entrée (or input ends), after saying so. */
export function waitForEnter(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: stdin, output: stdout, terminal: false });
    stdout.write("\nAppuyez sur Entrée pour fermer cette fenêtre.\n");
    rl.once("line", () => rl.close());
    rl.once("close", () => resolve());
    // An input that fails (no console left) ends the wait, as its end does; unheard it would end the app.
    rl.on("error", () => rl.close());
  });
}

/**
 * The command that starts this app as its window (issue 27, `--fenetre`,
 * `views/window-child.ts`), or null when no Bun can run it: the executable
 * itself when compiled; Bun and this script from the sources. Under Node,
 * Bun is `ATELIER_BUN`, else the registry's `@oven/bun-<system>-<arch>` in
 * node_modules (the `bun` package's own launcher needs an install script the
 * project does not run), else `bun` on `PATH`.
 * `entry`: the sources' `desktop/src/main.ts`; `flag`: `WINDOW_FLAG`.
 */
export function windowCommand(
  context: Pick<LaunchContext, "execPath" | "argv" | "env">,
  entry: string,
  flag: string,
  runtime: { bun?: string } = process.versions as { bun?: string },
): string[] | null {
  const [, script = ""] = context.argv;
  const compiled = script.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/i.test(script);
  if (compiled) return [context.execPath, flag];
  if (runtime.bun) return [context.execPath, entry, flag];
  const bun =
    context.env.ATELIER_BUN ||
    registryBun() ||
    findOnPath(process.platform === "win32" ? "bun.exe" : "bun", context.env);
  return bun ? [bun, entry, flag] : null;
}

/** The Bun binary of `@oven/bun-<system>-<arch>` under node_modules, or null. */
function registryBun(): string | null {
  const system = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "arm64" ? "aarch64" : process.arch;
  // A variable: a bundler must not try to embed the package.
  const name = `@oven/bun-${system}-${arch}/package.json`;
  try {
    const file = path.join(
      path.dirname(createRequire(import.meta.url).resolve(name)),
      "bin",
      system === "windows" ? "bun.exe" : "bun",
    );
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}
