/**
 * What the desktop app's end-to-end tests share (issues 15, 26, 27): the Linux
 * build a customer downloads, running it in its terminal interface on an X
 * display, and typing as a technician on a French keyboard.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Builds the Linux app (cached when its sources did not change; concurrent builds wait for each other's lock).
 * The build carries no server address (issue 29): run it with `--server`, or download it from a test server,
 * which writes its own address into the file. @returns the executable's path.
 */
export function buildLinuxApp(): string {
  return buildApp("linux-x64", "linux", "x64");
}

/**
 * Builds the app for `target` ("windows-x64", as `npm run build:desktop -- --target` names it), exactly as
 * customers download it (the same command, the same compression), and lists it in `build/desktop/manifest.json`,
 * which the test servers serve. @returns the executable's path.
 */
export function buildApp(target: string, platform: string, arch: string): string {
  execFileSync(process.execPath, ["scripts/build-desktop.ts", "--target", target], {
    cwd: root,
    stdio: "inherit",
  });
  const manifest = JSON.parse(readFileSync(path.join(root, "build/desktop/manifest.json"), "utf8")) as {
    files: { platform: string; arch: string; fileName: string }[];
  };
  const built = manifest.files.find((file) => file.platform === platform && file.arch === arch);
  if (!built) throw new Error(`build/desktop/manifest.json ne contient pas la version ${target}.`);
  return path.join(root, "build/desktop", built.fileName);
}

/** The keys of a French AZERTY keyboard that type these letters directly (Playwright's keyboard is a US one). */
const AZERTY: Record<string, { code: string; keyCode: number }> = {
  é: { code: "Digit2", keyCode: 50 },
  è: { code: "Digit7", keyCode: 55 },
  ç: { code: "Digit9", keyCode: 57 },
  à: { code: "Digit0", keyCode: 48 },
  ù: { code: "Quote", keyCode: 222 },
};

/** Presses each key as a technician on a French keyboard would: keydown carrying the letter, then keyup. */
export async function typeOnFrenchKeyboard(page: Page, text: string) {
  const cdp = await page.context().newCDPSession(page);
  for (const character of text) {
    const key = AZERTY[character];
    if (!key) {
      await page.keyboard.press(character);
      continue;
    }
    const common = { key: character, code: key.code, windowsVirtualKeyCode: key.keyCode };
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", text: character, ...common });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...common });
  }
  await cdp.detach();
}

/** A running app: everything it printed so far, and a key sent as a line (stdin is a pipe). */
export type TerminalApp = { child: ChildProcessWithoutNullStreams; output(): string; press(key: string): void };

/**
 * Starts the built app `binary` with `args` in its terminal interface (issue 27: the window has its own tests
 * in desktop/src/views) on X display `display` (e.g. ":99"), as an X11 session in French, with `env` added (a
 * customer's own HOME, say). The caller stops it.
 */
export function startTerminalApp(
  binary: string,
  args: readonly string[],
  display: string,
  env: Record<string, string> = {},
): TerminalApp {
  const child = spawn(binary, [...args, "--interface", "terminal"], {
    env: {
      ...process.env,
      DISPLAY: display,
      WAYLAND_DISPLAY: "",
      XDG_SESSION_TYPE: "x11",
      LANG: "fr_FR.UTF-8",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  // A key sent to an app that already quit fails with EPIPE: the test sees the exit, not a crashed worker.
  child.stdin.on("error", () => {});
  return { child, output: () => output, press: (key) => void child.stdin.write(`${key}\n`) };
}
