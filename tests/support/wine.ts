/**
 * Wine for the Windows app's end-to-end test (issue 36 §2): Debian's `wine64` (8.0 here) on an X display,
 * in a fresh prefix of its own, running Windows programs as a customer's computer would.
 *
 * - The prefix is made by `wineboot -i` with Mono and Gecko left out (`mscoree=;mshtml=`: their
 *   installers would be downloaded), and removed by `stop()` after `wineserver -k`.
 * - Wine older than 9 lacks `bcryptprimitives.dll!ProcessPrng`, which Bun's Windows runtime imports:
 *   the test-only forwarder DLL of `wine-prng-shim.ts` goes into the prefix's `system32`. The app is not
 *   changed for it: a real Windows 10 or 11 has the function.
 * - A program runs either with a pseudo-terminal as its console (`script`, as a customer's console
 *   window: keys, Ctrl+C) or with pipes.
 *
 * Throws, never skips, when Wine is missing (`apt-get install wine wine64`; `.ci/run` installs them).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { prngShimDll } from "./wine-prng-shim.ts";

const run = promisify(execFile);

/** Debian's 64-bit loader (package wine64), then the `wine` wrapper. */
const WINE_CANDIDATES = ["/usr/lib/wine/wine64", "/usr/bin/wine64", "/usr/bin/wine"];
const WINESERVER_CANDIDATES = ["/usr/lib/wine/wineserver64", "/usr/lib/wine/wineserver", "/usr/bin/wineserver"];

export type WinePrefix = {
  /** The prefix folder (`WINEPREFIX`). */
  prefix: string;
  /** The loader that runs a 64-bit `.exe`. */
  wine: string;
  /** Wine's version, e.g. "wine-8.0 (Debian 8.0~repack-4)". */
  version: string;
  /** Whether the ProcessPrng shim was put in (Wine < 9). */
  shimmed: boolean;
  env: NodeJS.ProcessEnv;
  /** The Unix path of the Windows user's `%TEMP%`. */
  temp(): string;
  /**
   * Ends every program of the prefix at once, as a restart of the computer would (`wineserver -k`); the
   * registry and files stay. Wine's own `shutdown.exe` does not end console programs.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

/** The first existing file of `candidates`, or a French error naming the package. */
function firstExisting(candidates: readonly string[], what: string): string {
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`${what} introuvable : installez les paquets Debian wine et wine64.`);
  return found;
}

/** Whether Wine's version string is older than 9 (no ProcessPrng). */
export function needsPrngShim(version: string): boolean {
  const major = /wine-(\d+)/.exec(version)?.[1];
  return major !== undefined && Number(major) < 9;
}

/** A fresh prefix on X display `display` (e.g. ":93"), ready to run the app (see the module comment). */
export async function startWinePrefix(display: string): Promise<WinePrefix> {
  const wine = firstExisting(WINE_CANDIDATES, "wine64");
  const wineserver = firstExisting(WINESERVER_CANDIDATES, "wineserver");
  const prefix = mkdtempSync(path.join(tmpdir(), "atelier-e2e-wine-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDLLOVERRIDES: "mscoree=;mshtml=",
    WINEDEBUG: "-all",
    DISPLAY: display,
    WAYLAND_DISPLAY: "",
    // A UTF-8 locale that every Debian has (fr_FR needs the `locales` package): Wine's console then speaks UTF-8.
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
  };
  const { stdout } = await run(wine, ["--version"], { env });
  const version = stdout.trim();
  await run(wine, ["wineboot", "-i"], { env, timeout: 120_000 });
  const system32 = path.join(prefix, "drive_c", "windows", "system32");
  const shimmed = needsPrngShim(version);
  if (shimmed) writeFileSync(path.join(system32, "bcryptprimitives.dll"), prngShimDll());
  return {
    prefix,
    wine,
    version,
    shimmed,
    env,
    temp: () => {
      // Wine 8 sets %TEMP% to C:\users\<user>\Temp; newer ones to …\AppData\Local\Temp.
      const users = path.join(prefix, "drive_c", "users");
      for (const user of readdirSync(users).filter((name) => name !== "Public")) {
        for (const candidate of [path.join(users, user, "Temp"), path.join(users, user, "AppData", "Local", "Temp")])
          if (existsSync(candidate)) return candidate;
      }
      throw new Error(`Aucun dossier temporaire dans ${users}`);
    },
    restart: async () => {
      await run(wineserver, ["-k"], { env }).catch(() => undefined);
      await run(wineserver, ["-w"], { env, timeout: 30_000 }).catch(() => undefined);
    },
    stop: async () => {
      await run(wineserver, ["-k"], { env }).catch(() => undefined);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** A Windows program under Wine: everything it printed (escape sequences removed), and its input. */
export type WineProgram = {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Types `text` into its console (a pseudo-terminal) or its standard input (a pipe). */
  type(text: string): void;
};

/**
 * Runs `exe` with `args` in `wine`'s prefix. `console: true` gives it a pseudo-terminal as its console
 * (`script` from util-linux): Entrée is a carriage return, Ctrl+C is "\u0003" and reaches it as a
 * console's Ctrl+C. Otherwise standard input and output are pipes.
 */
export function runUnderWine(
  wine: WinePrefix,
  exe: string,
  args: readonly string[],
  options: { console: boolean; keepConsole?: boolean; env?: Record<string, string> },
): WineProgram {
  const quoted = [wine.wine, exe, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
  // keepConsole: the console outlives the program (its exit code printed as « [sortie N] »), as a console window
  // that another program started from it keeps using.
  const command = options.keepConsole ? `${quoted}; echo "[sortie $?]"; sleep 600` : quoted;
  const child = options.console
    ? spawn("/usr/bin/script", ["-qfec", command, "/dev/null"], {
        // `script` runs the command with $SHELL, which Ctrl+C's SIGINT reaches too. bash waits for Wine and
        // exits with its code; dash (/bin/sh, $SHELL on a CI machine) dies of the SIGINT at once and `script`
        // reports 130 although the app went on and exited 0.
        env: { ...wine.env, COLUMNS: "100", LINES: "60", ...options.env, SHELL: "/bin/bash" },
      })
    : spawn(wine.wine, [exe, ...args], { env: { ...wine.env, ...options.env } });
  let output = "";
  const collect = (chunk: Buffer) => {
    // Cursor moves and colours of the console, then line ends.
    output += chunk
      .toString("utf8")
      // eslint-disable-next-line no-control-regex -- the console's escape sequences are what is removed
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "")
      .replace(/\r/g, "");
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  // Text typed into an app that already quit fails with EPIPE: the test sees the exit, not a crashed worker.
  child.stdin.on("error", () => {});
  return { child, output: () => output, type: (text) => void child.stdin.write(text) };
}
