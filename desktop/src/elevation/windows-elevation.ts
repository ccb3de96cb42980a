/**
 * Windows side of « Past UAC » (issue 36 §4), over the `ElevationApi` table (`windows-elevation-native.ts`):
 *
 * - `readElevation`: `OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY)` then
 *   `GetTokenInformation(TokenElevation = 20)`: `TokenIsElevated` non-zero means administrator. An unreadable
 *   token gives null (the technician is then offered nothing).
 * - `runAs`: `ShellExecuteExW` with the verb `runas` and `SEE_MASK_NOCLOSEPROCESS` (so the new process can be
 *   watched), `SEE_MASK_NOASYNC` (the call returns once it is started) and `SEE_MASK_FLAG_NO_UI` (the app says
 *   what failed, in French, instead of a Windows error box). Windows shows one UAC prompt; `ERROR_CANCELLED`
 *   (1223) is the customer's « Non ». Under Wine, `runas` simply starts the program, unelevated.
 * - The command line is quoted as `CommandLineToArgvW` and Bun/Node read it back (`quoteArgument`).
 */
import type { Elevation, RelaunchOutcome } from "./elevation.ts";
import type { ElevationApi, Handle, ShellExecuteInfo } from "./windows-elevation-native.ts";
import { SIZEOF_SHELLEXECUTEINFOW } from "./windows-elevation-native.ts";

export const TOKEN_QUERY = 0x0008;
export const TOKEN_ELEVATION_CLASS = 20;
export const SEE_MASK_NOCLOSEPROCESS = 0x00000040;
export const SEE_MASK_NOASYNC = 0x00000100;
export const SEE_MASK_FLAG_NO_UI = 0x00000400;
export const SW_SHOWNORMAL = 1;
export const ERROR_CANCELLED = 1223;
export const STILL_ACTIVE = 259;

/** Whether this process runs elevated; null when the token cannot be read. */
export function readElevation(api: ElevationApi): boolean | null {
  const token: Handle[] = [null];
  if (!api.OpenProcessToken(api.GetCurrentProcess(), TOKEN_QUERY, token) || !token[0]) return null;
  try {
    const info = [0];
    const returned = [0];
    if (!api.GetTokenInformation(token[0], TOKEN_ELEVATION_CLASS, info, 4, returned)) return null;
    return info[0] !== 0;
  } finally {
    api.CloseHandle(token[0]);
  }
}

/**
 * One argument as `CommandLineToArgvW` reads it back: unchanged when it has no space, tab or quote; else in
 * quotes, with backslashes doubled before a quote (escaped) and before the closing quote.
 */
export function quoteArgument(argument: string): string {
  if (argument !== "" && !/[\s"]/.test(argument)) return argument;
  let quoted = '"';
  let backslashes = 0;
  for (const character of argument) {
    if (character === "\\") {
      backslashes += 1;
      continue;
    }
    if (character === '"') quoted += "\\".repeat(backslashes * 2 + 1) + '"';
    else quoted += "\\".repeat(backslashes) + character;
    backslashes = 0;
  }
  return `${quoted}${"\\".repeat(backslashes * 2)}"`;
}

/**
 * Starts `file` with `args` as administrator (see the module comment). `directory`: its working folder.
 * Never rejects: a koffi failure is `failed`.
 */
export async function runAs(
  api: ElevationApi,
  file: string,
  args: readonly string[],
  directory: string | null,
): Promise<RelaunchOutcome> {
  const info: ShellExecuteInfo = {
    cbSize: SIZEOF_SHELLEXECUTEINFOW,
    fMask: SEE_MASK_NOCLOSEPROCESS | SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI,
    hwnd: null,
    lpVerb: "runas",
    lpFile: file,
    lpParameters: args.map(quoteArgument).join(" "),
    lpDirectory: directory,
    nShow: SW_SHOWNORMAL,
    hInstApp: null,
    lpIDList: null,
    lpClass: null,
    hkeyClass: null,
    dwHotKey: 0,
    hIcon: null,
    hProcess: null,
  };
  let result: { ok: boolean; error: number };
  try {
    result = await api.ShellExecuteExW(info);
  } catch (error) {
    return { kind: "failed", reason: `ShellExecuteExW : ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!result.ok) {
    if (result.error === ERROR_CANCELLED) return { kind: "cancelled" };
    return { kind: "failed", reason: `Windows n'a pas pu lancer le logiciel (erreur ${result.error}).` };
  }
  const child = info.hProcess;
  let released = false;
  return {
    kind: "started",
    running() {
      // Without a handle (Windows handed the start to an existing process) nothing can be watched: assume it runs.
      if (!child || released) return !released;
      const code = [0];
      return api.GetExitCodeProcess(child, code) ? code[0] === STILL_ACTIVE : false;
    },
    release() {
      if (released) return;
      released = true;
      if (child) api.CloseHandle(child);
    },
  };
}

/** The `Elevation` of a Windows process over `api`: elevation read once (it never changes for a process). */
export function windowsElevation(api: ElevationApi): Elevation {
  const elevated = readElevation(api);
  return {
    elevated,
    relaunch: ([file, ...args]) =>
      file ? runAs(api, file, args, null) : Promise.resolve({ kind: "failed", reason: "Aucun programme à relancer." }),
  };
}
