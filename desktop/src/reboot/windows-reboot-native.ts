/**
 * The Windows FFI boundary of « Reboot and reconnect » (issue 38 §3): advapi32's registry functions through
 * koffi, exposed as a table of the C functions (`RebootApi`) so that `windows-autostart.ts` is unit-tested on Linux
 * with a fake table recording every call, as `../elevation/windows-elevation-native.ts` is.
 *
 * Predefined keys (`HKEY_CURRENT_USER` = `(HKEY)(LONG)0x80000001`) are sign-extended pointers on x64: the root
 * key parameter is declared `intptr_t` and given `HKEY_CURRENT_USER` (−2147483647).
 */
import { loadKoffi } from "../input/koffi.ts";

/** A registry key HANDLE: opaque. */
export type Key = unknown;

/** `(HKEY)(ULONG_PTR)(LONG)0x80000001` as the signed integer koffi passes for an `intptr_t`. */
export const HKEY_CURRENT_USER = -2147483647;
export const KEY_QUERY_VALUE = 0x0001;
export const KEY_SET_VALUE = 0x0002;
export const REG_SZ = 1;
export const ERROR_SUCCESS = 0;
export const ERROR_FILE_NOT_FOUND = 2;

/** The functions, by their C names; each returns the `LSTATUS` (0: success, else a Win32 error code). */
export interface RebootApi {
  /** Opens (creating it if needed) `subKey` of `root`; writes the key into `key[0]`. */
  RegCreateKeyExW(root: number, subKey: string, access: number, key: Key[]): number;
  /** Opens an existing `subKey` of `root`; writes the key into `key[0]`. */
  RegOpenKeyExW(root: number, subKey: string, access: number, key: Key[]): number;
  /** Sets value `name` of `key` to `data` (its bytes: UTF-16LE with the terminating NUL for `REG_SZ`). */
  RegSetValueExW(key: Key, name: string, type: number, data: Buffer): number;
  /** Whether value `name` of `key` exists (its data is not read): `ERROR_SUCCESS` or `ERROR_FILE_NOT_FOUND`. */
  RegQueryValueExW(key: Key, name: string): number;
  RegDeleteValueW(key: Key, name: string): number;
  RegCloseKey(key: Key): number;
}

/** advapi32.dll's functions, as koffi declarations. */
export const ADVAPI32_REBOOT = {
  RegCreateKeyExW:
    "int32_t __stdcall RegCreateKeyExW(intptr_t root, str16 subKey, uint32_t reserved, void *keyClass, " +
    "uint32_t options, uint32_t access, void *security, _Out_ void **key, void *disposition)",
  RegOpenKeyExW:
    "int32_t __stdcall RegOpenKeyExW(intptr_t root, str16 subKey, uint32_t options, uint32_t access, _Out_ void **key)",
  RegSetValueExW:
    "int32_t __stdcall RegSetValueExW(void *key, str16 name, uint32_t reserved, uint32_t type, " +
    "const uint8_t *data, uint32_t size)",
  RegQueryValueExW:
    "int32_t __stdcall RegQueryValueExW(void *key, str16 name, void *reserved, void *type, void *data, void *size)",
  RegDeleteValueW: "int32_t __stdcall RegDeleteValueW(void *key, str16 name)",
  RegCloseKey: "int32_t __stdcall RegCloseKey(void *key)",
} as const;

type Fn = (...args: unknown[]) => unknown;

/** Binds the functions above. @throws when koffi or advapi32 cannot be loaded (the app then has no autostart). */
export async function openRebootApi(): Promise<RebootApi> {
  const koffi = await loadKoffi();
  const library = koffi.load("advapi32.dll");
  const fn = {} as Record<keyof typeof ADVAPI32_REBOOT, Fn>;
  for (const [name, declaration] of Object.entries(ADVAPI32_REBOOT))
    fn[name as keyof typeof ADVAPI32_REBOOT] = library.func(declaration) as Fn;
  return {
    RegCreateKeyExW: (root, subKey, access, key) =>
      Number(fn.RegCreateKeyExW(root, subKey, 0, null, 0, access, null, key, null)),
    RegOpenKeyExW: (root, subKey, access, key) => Number(fn.RegOpenKeyExW(root, subKey, 0, access, key)),
    RegSetValueExW: (key, name, type, data) => Number(fn.RegSetValueExW(key, name, 0, type, data, data.length)),
    RegQueryValueExW: (key, name) => Number(fn.RegQueryValueExW(key, name, null, null, null, null)),
    RegDeleteValueW: (key, name) => Number(fn.RegDeleteValueW(key, name)),
    RegCloseKey: (key) => Number(fn.RegCloseKey(key)),
  };
}
