/**
 * Issue 36 §4 on Windows, through a fake `ElevationApi` recording its calls: the elevation read from the process
 * token (TokenElevation, 20) and the token closed; the relaunch through `ShellExecuteExW` with `runas`,
 * `SEE_MASK_NOCLOSEPROCESS`, the program and its quoted arguments; the customer's « Non » (`ERROR_CANCELLED`,
 * 1223) and other failures in French; the started process watched and its handle closed. koffi checks the x64
 * layout of SHELLEXECUTEINFOW.
 */
import { describe, expect, it } from "vitest";
import { loadKoffi } from "../input/koffi.ts";
import { createElevation, NO_ELEVATION, programCommand } from "./elevation.ts";
import {
  ERROR_CANCELLED,
  quoteArgument,
  readElevation,
  runAs,
  SEE_MASK_NOCLOSEPROCESS,
  STILL_ACTIVE,
  TOKEN_ELEVATION_CLASS,
  TOKEN_QUERY,
  windowsElevation,
} from "./windows-elevation.ts";
import {
  elevationTypes,
  SIZEOF_SHELLEXECUTEINFOW,
  type ElevationApi,
  type ShellExecuteInfo,
} from "./windows-elevation-native.ts";

type Call = [string, ...unknown[]];

/** A fake table: `elevated` is the token's answer; `shell` what ShellExecuteExW does; `exitCodes` in turn. */
function fakeApi(options: {
  elevated?: number;
  tokenFails?: boolean;
  shell?: { ok: boolean; error: number };
  exitCodes?: number[];
}) {
  const calls: Call[] = [];
  const shellInfos: ShellExecuteInfo[] = [];
  const api: ElevationApi = {
    GetCurrentProcess: () => "current-process",
    OpenProcessToken(process, access, token) {
      calls.push(["OpenProcessToken", process, access]);
      if (options.tokenFails) return false;
      token[0] = "token";
      return true;
    },
    GetTokenInformation(token, infoClass, info, length) {
      calls.push(["GetTokenInformation", token, infoClass, length]);
      info[0] = options.elevated ?? 0;
      return true;
    },
    CloseHandle(handle) {
      calls.push(["CloseHandle", handle]);
      return true;
    },
    async ShellExecuteExW(info) {
      shellInfos.push({ ...info });
      const result = options.shell ?? { ok: true, error: 0 };
      if (result.ok) info.hProcess = "child-process";
      return result;
    },
    GetExitCodeProcess(process, code) {
      calls.push(["GetExitCodeProcess", process]);
      code[0] = options.exitCodes?.shift() ?? STILL_ACTIVE;
      return true;
    },
  };
  return { api, calls, shellInfos };
}

describe("whether the app runs as administrator", () => {
  it("reads TokenElevation from the process token, and closes the token", () => {
    for (const [answer, expected] of [
      [1, true],
      [0, false],
    ] as const) {
      const fake = fakeApi({ elevated: answer });
      expect(readElevation(fake.api)).toBe(expected);
      expect(fake.calls).toEqual([
        ["OpenProcessToken", "current-process", TOKEN_QUERY],
        ["GetTokenInformation", "token", TOKEN_ELEVATION_CLASS, 4],
        ["CloseHandle", "token"],
      ]);
    }
    expect(TOKEN_ELEVATION_CLASS).toBe(20);
  });

  it("says nothing when the token cannot be opened, and nothing at all off Windows", async () => {
    expect(readElevation(fakeApi({ tokenFails: true }).api)).toBeNull();
    expect(await createElevation("linux")).toBe(NO_ELEVATION);
    expect(NO_ELEVATION.elevated).toBeUndefined();
    expect(await NO_ELEVATION.relaunch(["x"])).toEqual({ kind: "failed", reason: expect.stringMatching(/Windows/) });
  });
});

describe("relaunching as administrator", () => {
  it("calls ShellExecuteExW with runas, the program, its quoted arguments, and keeps the process handle", async () => {
    const fake = fakeApi({ elevated: 0, exitCodes: [STILL_ACTIVE, 0] });
    const elevation = windowsElevation(fake.api);
    expect(elevation.elevated).toBe(false);
    const file = String.raw`C:\Users\Marie Dupont\AppData\Local\Temp\atelier-reprise-ab12Cd\reprise.json`;
    const outcome = await elevation.relaunch([
      String.raw`C:\Users\Marie Dupont\Téléchargements\atelier-assistance.exe`,
      "--server",
      "https://atelier.example",
      "--reprendre",
      file,
    ]);
    expect(fake.shellInfos).toHaveLength(1);
    const info = fake.shellInfos[0]!;
    expect(info).toMatchObject({
      cbSize: SIZEOF_SHELLEXECUTEINFOW,
      lpVerb: "runas",
      lpFile: String.raw`C:\Users\Marie Dupont\Téléchargements\atelier-assistance.exe`,
      lpParameters: `--server https://atelier.example --reprendre "${file}"`,
      nShow: 1,
    });
    expect(info.fMask & SEE_MASK_NOCLOSEPROCESS).toBe(SEE_MASK_NOCLOSEPROCESS);
    expect(outcome.kind).toBe("started");
    if (outcome.kind !== "started") return;
    expect(outcome.running()).toBe(true);
    expect(outcome.running()).toBe(false);
    outcome.release();
    outcome.release();
    expect(fake.calls.filter(([name]) => name === "CloseHandle").map(([, handle]) => handle)).toEqual([
      "token",
      "child-process",
    ]);
  });

  it("tells the customer's « Non » (ERROR_CANCELLED) from other failures, in French", async () => {
    expect(ERROR_CANCELLED).toBe(1223);
    const refused = fakeApi({ shell: { ok: false, error: ERROR_CANCELLED } });
    expect(await runAs(refused.api, "app.exe", [], null)).toEqual({ kind: "cancelled" });
    const failed = fakeApi({ shell: { ok: false, error: 2 } });
    expect(await runAs(failed.api, "app.exe", [], null)).toEqual({
      kind: "failed",
      reason: "Windows n'a pas pu lancer le logiciel (erreur 2).",
    });
  });

  it("quotes arguments as CommandLineToArgvW reads them back", () => {
    expect(quoteArgument("--server")).toBe("--server");
    expect(quoteArgument("")).toBe('""');
    expect(quoteArgument("a b")).toBe('"a b"');
    expect(quoteArgument(String.raw`C:\dir with space\\`)).toBe(String.raw`"C:\dir with space\\\\"`);
    expect(quoteArgument('say "hi"')).toBe(String.raw`"say \"hi\""`);
  });

  it("relaunches the executable alone when compiled, the runtime and the script otherwise", () => {
    expect(programCommand(String.raw`C:\app.exe`, [String.raw`C:\app.exe`, "B:/~BUN/root/main.js", "--code"])).toEqual([
      String.raw`C:\app.exe`,
    ]);
    expect(programCommand("/usr/bin/node", ["/usr/bin/node", "/src/desktop/src/main.ts", "--code", "X"])).toEqual([
      "/usr/bin/node",
      "/src/desktop/src/main.ts",
    ]);
  });

  it("declares SHELLEXECUTEINFOW with the x64 Windows layout", async () => {
    const koffi = await loadKoffi();
    const { SHELLEXECUTEINFOW } = elevationTypes(koffi);
    expect(koffi.sizeof(SHELLEXECUTEINFOW)).toBe(SIZEOF_SHELLEXECUTEINFOW);
    expect(koffi.offsetof(SHELLEXECUTEINFOW, "lpVerb")).toBe(16);
    expect(koffi.offsetof(SHELLEXECUTEINFOW, "nShow")).toBe(48);
    expect(koffi.offsetof(SHELLEXECUTEINFOW, "hInstApp")).toBe(56);
    expect(koffi.offsetof(SHELLEXECUTEINFOW, "dwHotKey")).toBe(88);
    expect(koffi.offsetof(SHELLEXECUTEINFOW, "hProcess")).toBe(104);
  });
});
