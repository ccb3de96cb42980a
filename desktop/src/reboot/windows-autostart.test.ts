/**
 * Issue 38 §3 on Windows, through a fake table of advapi32's registry functions (no Windows here): the app's
 * return after the restart is a `REG_SZ` value of `HKCU\…\RunOnce` holding the quoted command line, as UTF-16 with
 * its terminating NUL; the key is always closed; removing is idempotent; a refusal is said in French; koffi parses
 * every declaration.
 */
import { describe, expect, it } from "vitest";
import { loadKoffi } from "../input/koffi.ts";
import { AUTOSTART_FAILED } from "./autostart.ts";
import { RUN_ONCE_KEY, RUN_ONCE_VALUE, windowsAutostart, windowsCommandLine } from "./windows-autostart.ts";
import {
  ADVAPI32_REBOOT,
  ERROR_FILE_NOT_FOUND,
  ERROR_SUCCESS,
  HKEY_CURRENT_USER,
  REG_SZ,
  type RebootApi,
} from "./windows-reboot-native.ts";

/** A registry of one user's RunOnce key, recording the calls. */
function fakeRegistry(options: { denied?: number } = {}) {
  const values = new Map<string, { type: number; data: Buffer }>();
  const calls: string[] = [];
  let open = 0;
  const api: RebootApi = {
    RegCreateKeyExW(root, subKey, _access, key) {
      calls.push(`create ${root} ${subKey}`);
      if (options.denied) return options.denied;
      open += 1;
      key[0] = { subKey };
      return ERROR_SUCCESS;
    },
    RegOpenKeyExW(root, subKey, _access, key) {
      calls.push(`open ${root} ${subKey}`);
      open += 1;
      key[0] = { subKey };
      return ERROR_SUCCESS;
    },
    RegSetValueExW(_key, name, type, data) {
      calls.push(`set ${name}`);
      values.set(name, { type, data: Buffer.from(data) });
      return ERROR_SUCCESS;
    },
    RegQueryValueExW: (_key, name) => (values.has(name) ? ERROR_SUCCESS : ERROR_FILE_NOT_FOUND),
    RegDeleteValueW(_key, name) {
      calls.push(`delete ${name}`);
      return values.delete(name) ? ERROR_SUCCESS : ERROR_FILE_NOT_FOUND;
    },
    RegCloseKey() {
      open -= 1;
      return ERROR_SUCCESS;
    },
  };
  return { api, values, calls, open: () => open };
}

const COMMAND = [
  String.raw`C:\Users\Marie Dupont\Downloads\atelier-assistance-1.0-windows-x64.exe`,
  "--server",
  "https://atelier.example",
  "--reprendre",
  String.raw`C:\Users\Marie Dupont\AppData\Local\atelier-assistance\atelier-reprise-Ab12Cd\reprise.json`,
];

describe("the Windows RunOnce entry", () => {
  it("writes the quoted command line to HKCU's RunOnce, as UTF-16 with its NUL, and closes the key", async () => {
    const registry = fakeRegistry();
    const autostart = windowsAutostart(registry.api);
    expect(autostart.where).toBe(`HKCU\\${RUN_ONCE_KEY}\\${RUN_ONCE_VALUE}`);
    expect(await autostart.registered()).toBe(false);
    await autostart.register(COMMAND);
    expect(registry.calls).toContain(
      `create ${HKEY_CURRENT_USER} Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce`,
    );
    const stored = registry.values.get(RUN_ONCE_VALUE)!;
    expect(stored.type).toBe(REG_SZ);
    expect(stored.data.toString("utf16le")).toBe(
      `"${COMMAND[0]}" --server https://atelier.example --reprendre "${COMMAND[4]}"\0`,
    );
    expect(await autostart.registered()).toBe(true);
    expect(registry.open()).toBe(0);
  });

  it("removes the value once, and says nothing when there is none", async () => {
    const registry = fakeRegistry();
    const autostart = windowsAutostart(registry.api);
    await autostart.register(COMMAND);
    expect(await autostart.remove()).toBe(true);
    expect(registry.values.size).toBe(0);
    expect(await autostart.remove()).toBe(false);
    expect(registry.open()).toBe(0);
  });

  it("says in French when the key cannot be written", async () => {
    const autostart = windowsAutostart(fakeRegistry({ denied: 5 }).api);
    await expect(autostart.register(COMMAND)).rejects.toThrow(`${AUTOSTART_FAILED} (erreur Windows 5).`);
  });

  it("quotes each argument as CommandLineToArgvW reads it back", () => {
    expect(windowsCommandLine(["C:\\a b\\x.exe", 'say "hi"', "C:\\dir\\"])).toBe(
      String.raw`"C:\a b\x.exe" "say \"hi\"" C:\dir\ `.trimEnd(),
    );
  });

  it("declares every function in a form koffi parses", async () => {
    const koffi = await loadKoffi();
    for (const declaration of Object.values(ADVAPI32_REBOOT)) {
      const renamed = declaration.replace(/ (\w+)\(/, " AtelierReboot$1(");
      expect(() => koffi.proto(renamed), declaration).not.toThrow();
    }
  });
});
