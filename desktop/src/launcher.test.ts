/**
 * Issue 26, a double-click in a file manager: the app finds a terminal to
 * run in (or says there is none), starts itself there with the same
 * arguments, and keeps a window it opened until Entrée.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  OWN_TERMINAL_ENV,
  selfCommand,
  terminalRelaunch,
  waitForEnter,
  windowClosesWithApp,
  windowCommand,
  type LaunchContext,
} from "./launcher.ts";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "atelier-launcher-"));
  for (const name of ["xterm", "konsole"]) {
    await writeFile(path.join(folder, name), "#!/bin/sh\n");
    await chmod(path.join(folder, name), 0o755);
  }
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const doubleClicked = (): LaunchContext => ({
  platform: "linux",
  env: { PATH: folder, DISPLAY: ":0" },
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stdinFromNowhere: true,
  execPath: "/home/marie/Téléchargements/atelier-assistance-0.1.0-linux-x64",
  argv: ["bun", "/$bunfs/root/atelier-assistance", "--server", "https://atelier.example"],
});

describe("started from a file manager", () => {
  it("runs again in the first terminal found, with the same arguments", () => {
    expect(terminalRelaunch(doubleClicked())).toEqual({
      command: [
        path.join(folder, "konsole"),
        "-e",
        "/home/marie/Téléchargements/atelier-assistance-0.1.0-linux-x64",
        "--server",
        "https://atelier.example",
      ],
    });
  });

  it("stays where it is in a terminal, in its own window, without a display, or on another system", () => {
    expect(terminalRelaunch({ ...doubleClicked(), stdinIsTTY: true })).toBeNull();
    // Started by another program or a script, through a pipe: not a double-click.
    expect(terminalRelaunch({ ...doubleClicked(), stdinFromNowhere: false })).toBeNull();
    expect(
      terminalRelaunch({ ...doubleClicked(), env: { PATH: folder, DISPLAY: ":0", [OWN_TERMINAL_ENV]: "1" } }),
    ).toBeNull();
    expect(terminalRelaunch({ ...doubleClicked(), env: { PATH: folder } })).toBeNull();
    expect(terminalRelaunch({ ...doubleClicked(), platform: "darwin" })).toBeNull();
  });

  it("knows when no terminal exists", () => {
    expect(terminalRelaunch({ ...doubleClicked(), env: { PATH: "/nonexistent", DISPLAY: ":0" } })).toEqual({
      missing: true,
    });
  });

  it("runs the script again under a runtime, the executable alone when compiled", () => {
    expect(selfCommand({ execPath: "/usr/bin/node", argv: ["/usr/bin/node", "/src/main.ts", "--code", "X"] })).toEqual([
      "/usr/bin/node",
      "/src/main.ts",
      "--code",
      "X",
    ]);
    expect(selfCommand({ execPath: "C:\\a.exe", argv: ["bun", "B:/~BUN/root/a.exe", "--help"] })).toEqual([
      "C:\\a.exe",
      "--help",
    ]);
  });
});

describe("the window process (issue 27)", () => {
  it("is the executable itself when compiled, else Bun with the sources", () => {
    const env = { PATH: folder };
    const compiled = { execPath: "/tmp/atelier", argv: ["/tmp/atelier", "/$bunfs/root/atelier", "--code", "X"], env };
    expect(windowCommand(compiled, "/src/main.ts", "--fenetre")).toEqual(["/tmp/atelier", "--fenetre"]);
    const underBun = { execPath: "/usr/bin/bun", argv: ["/usr/bin/bun", "/src/main.ts"], env };
    expect(windowCommand(underBun, "/src/main.ts", "--fenetre", { bun: "1.4.5" })).toEqual([
      "/usr/bin/bun",
      "/src/main.ts",
      "--fenetre",
    ]);
    const underNode = {
      execPath: "/usr/bin/node",
      argv: ["/usr/bin/node", "/src/main.ts"],
      env: { ATELIER_BUN: "/opt/bun" },
    };
    expect(windowCommand(underNode, "/src/main.ts", "--fenetre", {})).toEqual([
      "/opt/bun",
      "/src/main.ts",
      "--fenetre",
    ]);
    // Without ATELIER_BUN: the registry's Bun installed in node_modules.
    expect(windowCommand({ ...underNode, env }, "/src/main.ts", "--fenetre", {})?.[0]).toMatch(
      /node_modules[\\/]@oven[\\/]bun-[^\\/]+[\\/]bin[\\/]bun/,
    );
  });
});

describe("a window that closes with the app", () => {
  it("is ours, or a Windows console holding this process alone", () => {
    expect(windowClosesWithApp({ ...doubleClicked(), env: { [OWN_TERMINAL_ENV]: "1" } }, null)).toBe(true);
    expect(windowClosesWithApp({ ...doubleClicked(), platform: "win32" }, 1)).toBe(true);
    expect(windowClosesWithApp({ ...doubleClicked(), platform: "win32" }, 3)).toBe(false);
    expect(windowClosesWithApp(doubleClicked(), null)).toBe(false);
  });

  it("waits for Entrée before closing", async () => {
    const stdin = new PassThrough();
    const out: string[] = [];
    const stdout = new PassThrough();
    stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    let done = false;
    const waiting = waitForEnter(stdin, stdout).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    expect(out.join("")).toContain("Appuyez sur Entrée pour fermer cette fenêtre.");
    stdin.write("\n");
    await waiting;
    expect(done).toBe(true);
  });

  it("stops waiting when the input fails (no console left), instead of ending the app with an uncaught error", async () => {
    const stdin = new PassThrough();
    const waiting = waitForEnter(stdin, new PassThrough());
    stdin.destroy(Object.assign(new Error("bad file descriptor"), { code: "EBADF" }));
    await expect(waiting).resolves.toBeUndefined();
  });
});
