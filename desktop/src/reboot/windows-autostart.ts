/**
 * Issue 38 §3, « Reboot and reconnect », on Windows: the app's start at the next sign-in is a value
 * `AtelierAssistanceReprise` of `HKCU\Software\Microsoft\Windows\CurrentVersion\RunOnce` (the customer's own
 * key: no administrator rights needed), a `REG_SZ` command line quoted as `CommandLineToArgvW` reads it back
 * (`quoteArgument`, shared with the relaunch as administrator). Windows deletes a `RunOnce` value before running
 * it; the resumed process, the end of the session and a failed restart delete it too (`remove`, idempotent).
 * Through `RebootApi` (koffi, `windows-reboot-native.ts`), faked in the tests.
 */
import { quoteArgument } from "../elevation/windows-elevation.ts";
import { AUTOSTART_FAILED, type Autostart } from "./autostart.ts";
import {
  ERROR_SUCCESS,
  HKEY_CURRENT_USER,
  KEY_QUERY_VALUE,
  KEY_SET_VALUE,
  REG_SZ,
  type Key,
  type RebootApi,
} from "./windows-reboot-native.ts";

/** The key, under `HKEY_CURRENT_USER`. */
export const RUN_ONCE_KEY = "Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce";
/** The value's name. */
export const RUN_ONCE_VALUE = "AtelierAssistanceReprise";

/** `command` as one Windows command line (each argument quoted when needed). */
export function windowsCommandLine(command: readonly string[]): string {
  return command.map(quoteArgument).join(" ");
}

/** Windows' `RunOnce` value (see the module comment). */
export function windowsAutostart(api: RebootApi): Autostart {
  /** Runs `body` with the key opened (`create`: made if missing); the status of the open when it failed. */
  const withKey = (create: boolean, body: (key: Key) => number): number => {
    const key: Key[] = [null];
    const access = KEY_SET_VALUE | KEY_QUERY_VALUE;
    const opened = create
      ? api.RegCreateKeyExW(HKEY_CURRENT_USER, RUN_ONCE_KEY, access, key)
      : api.RegOpenKeyExW(HKEY_CURRENT_USER, RUN_ONCE_KEY, access, key);
    if (opened !== ERROR_SUCCESS) return opened;
    try {
      return body(key[0]);
    } finally {
      api.RegCloseKey(key[0]);
    }
  };
  return {
    where: `HKCU\\${RUN_ONCE_KEY}\\${RUN_ONCE_VALUE}`,
    async register(command) {
      const data = Buffer.from(`${windowsCommandLine(command)}\0`, "utf16le");
      const status = withKey(true, (key) => api.RegSetValueExW(key, RUN_ONCE_VALUE, REG_SZ, data));
      if (status !== ERROR_SUCCESS) throw new Error(`${AUTOSTART_FAILED} (erreur Windows ${status}).`);
    },
    async remove() {
      try {
        return withKey(false, (key) => api.RegDeleteValueW(key, RUN_ONCE_VALUE)) === ERROR_SUCCESS;
      } catch {
        return false;
      }
    },
    async registered() {
      try {
        return withKey(false, (key) => api.RegQueryValueExW(key, RUN_ONCE_VALUE)) === ERROR_SUCCESS;
      } catch {
        return false;
      }
    },
  };
}
