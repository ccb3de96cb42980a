/**
 * The Windows FFI boundary of « Past UAC » (issue 36 §4): kernel32, advapi32 and shell32 through koffi, exposed
 * as a table of the C functions (`ElevationApi`) so `windows-elevation.ts` is unit-tested on Linux with a fake
 * table recording every call, as `../input/windows-native.ts` and `../capture/windows-capture-native.ts` are.
 * Struct layouts are those of x64 Windows (`elevationTypes`, checked with koffi by the tests:
 * sizeof(SHELLEXECUTEINFOW) = 112, `hProcess` at 104).
 */
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";

/** A process or token HANDLE: opaque, null when a call failed. */
export type Handle = unknown;

/**
 * SHELLEXECUTEINFOW (x64, 112 bytes). Strings are UTF-16 (`str16`); `hProcess` is filled by `ShellExecuteExW`
 * when `fMask` has `SEE_MASK_NOCLOSEPROCESS` and a process was started.
 */
export type ShellExecuteInfo = {
  cbSize: number;
  fMask: number;
  hwnd: Handle;
  lpVerb: string;
  lpFile: string;
  lpParameters: string;
  lpDirectory: string | null;
  nShow: number;
  hInstApp: Handle;
  lpIDList: null;
  lpClass: null;
  hkeyClass: null;
  dwHotKey: number;
  hIcon: null;
  hProcess: Handle;
};

export const SIZEOF_SHELLEXECUTEINFOW = 112;

/** The functions « Past UAC » calls, by their C names (BOOL results as booleans). */
export interface ElevationApi {
  /** kernel32: the pseudo handle of this process (never to be closed). */
  GetCurrentProcess(): Handle;
  /** advapi32: writes the token's handle into `token[0]`; false on failure. */
  OpenProcessToken(process: Handle, access: number, token: Handle[]): boolean;
  /** advapi32: for `TokenElevation` (20), writes `TOKEN_ELEVATION.TokenIsElevated` into `info[0]`. */
  GetTokenInformation(token: Handle, infoClass: number, info: number[], length: number, returned: number[]): boolean;
  /** kernel32. */
  CloseHandle(handle: Handle): boolean;
  /**
   * shell32, run off the JavaScript thread (koffi's `async`): with the verb `runas` it returns only once the
   * customer answered the UAC prompt, and the app must keep streaming meanwhile. Fills `info.hProcess`.
   * Resolves with the BOOL and `GetLastError()` read right after, on the thread that made the call.
   */
  ShellExecuteExW(info: ShellExecuteInfo): Promise<{ ok: boolean; error: number }>;
  /** kernel32: writes the exit code into `code[0]` (`STILL_ACTIVE`, 259, while it runs). */
  GetExitCodeProcess(process: Handle, code: number[]): boolean;
}

type TypeObject = ReturnType<Koffi["struct"]>;
const typesByKoffi = new WeakMap<object, { SHELLEXECUTEINFOW: TypeObject }>();

/** Declares SHELLEXECUTEINFOW in `koffi` (once per koffi instance: type names are global to it). */
export function elevationTypes(koffi: Koffi): { SHELLEXECUTEINFOW: TypeObject } {
  const known = typesByKoffi.get(koffi);
  if (known) return known;
  const SHELLEXECUTEINFOW = koffi.struct("AtelierSHELLEXECUTEINFOW", {
    cbSize: "uint32_t",
    fMask: "uint32_t",
    hwnd: "void *",
    lpVerb: "str16",
    lpFile: "str16",
    lpParameters: "str16",
    lpDirectory: "str16",
    nShow: "int32_t",
    hInstApp: "void *",
    lpIDList: "void *",
    lpClass: "str16",
    hkeyClass: "void *",
    dwHotKey: "uint32_t",
    // A union of HANDLEs (hIcon, hMonitor): one pointer.
    hIcon: "void *",
    hProcess: "void *",
  });
  const types = { SHELLEXECUTEINFOW };
  typesByKoffi.set(koffi, types);
  return types;
}

/** kernel32.dll's functions, as koffi declarations (BOOL is `int`: koffi's `bool` reads one byte). */
export const KERNEL32_ELEVATION = {
  GetCurrentProcess: "void * __stdcall GetCurrentProcess()",
  CloseHandle: "int __stdcall CloseHandle(void *handle)",
  GetExitCodeProcess: "int __stdcall GetExitCodeProcess(void *process, _Out_ uint32_t *code)",
  GetLastError: "uint32_t __stdcall GetLastError()",
} as const;

/** advapi32.dll's functions. */
export const ADVAPI32_ELEVATION = {
  OpenProcessToken: "int __stdcall OpenProcessToken(void *process, uint32_t access, _Out_ void **token)",
  GetTokenInformation:
    "int __stdcall GetTokenInformation(void *token, int infoClass, _Out_ uint32_t *info, uint32_t length, " +
    "_Out_ uint32_t *returned)",
} as const;

/** shell32.dll's function. */
export const SHELL32_ELEVATION = {
  ShellExecuteExW: "int __stdcall ShellExecuteExW(_Inout_ AtelierSHELLEXECUTEINFOW *info)",
} as const;

type Fn = ((...args: unknown[]) => unknown) & { async(...args: unknown[]): void };

/**
 * Binds the functions above (issue 36 §4). @throws when koffi or a library cannot be loaded (the caller then
 * reports no elevation: the app works as before).
 */
export async function openElevationApi(): Promise<ElevationApi> {
  const koffi = await loadKoffi();
  elevationTypes(koffi);
  const bind = <T extends Record<string, string>>(library: string, declarations: T) => {
    const handle = koffi.load(library);
    const out = {} as Record<keyof T, Fn>;
    for (const [name, declaration] of Object.entries(declarations)) out[name as keyof T] = handle.func(declaration);
    return out;
  };
  const kernel32 = bind("kernel32.dll", KERNEL32_ELEVATION);
  const advapi32 = bind("advapi32.dll", ADVAPI32_ELEVATION);
  const shell32 = bind("shell32.dll", SHELL32_ELEVATION);
  return {
    GetCurrentProcess: () => kernel32.GetCurrentProcess(),
    OpenProcessToken: (process, access, token) => Boolean(advapi32.OpenProcessToken(process, access, token)),
    GetTokenInformation: (token, infoClass, info, length, returned) =>
      Boolean(advapi32.GetTokenInformation(token, infoClass, info, length, returned)),
    CloseHandle: (handle) => Boolean(kernel32.CloseHandle(handle)),
    GetExitCodeProcess: (process, code) => Boolean(kernel32.GetExitCodeProcess(process, code)),
    ShellExecuteExW: (info) =>
      new Promise((resolve, reject) => {
        shell32.ShellExecuteExW.async(info, (error: unknown, result: unknown) => {
          // koffi keeps the worker's last error for its async callback (koffi 3.2).
          const last = Number(kernel32.GetLastError());
          if (error) reject(error instanceof Error ? error : new Error(String(error)));
          else resolve({ ok: Boolean(result), error: last });
        });
      }),
  };
}
