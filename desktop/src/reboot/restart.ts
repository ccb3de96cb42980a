/**
 * Issue 38 §3, « Reboot and reconnect »: asking the system to restart, once the customer accepted and the app is
 * registered for the next sign-in. Every system call goes through a `RunCommand` given by the caller (tests pass a
 * fake one and never restart anything):
 *
 * - **Linux**: `systemctl reboot` (systemd-logind; polkit lets the user of the active local session do it without
 *   a password on the usual desktops), else the same request to logind over D-Bus with `dbus-send`
 *   (`org.freedesktop.login1.Manager.Reboot`, interactive: polkit may ask for a password).
 * - **macOS**: `osascript` telling System Events to restart (macOS asks once for the automation permission),
 *   else the `loginwindow` restart event, which needs none. Programs with unsaved work may cancel it: the app
 *   then notices that it is still running (`reboot-flow.ts`).
 * - **Windows**: `%SystemRoot%\System32\shutdown.exe /r /t 0`, part of every Windows, which enables the
 *   shutdown privilege itself (`SeShutdownPrivilege`, held by every interactive user).
 * A refusal rejects with a French message carrying the tool's own words (first line of its error output).
 */
import { spawn } from "node:child_process";
import path from "node:path";

/** Runs `command`; resolves with its exit code (null: not started or killed) and its error output. Never rejects. */
export type RunCommand = (command: readonly string[]) => Promise<{ code: number | null; stderr: string }>;

/** French: the restart could not be asked (with the reason appended). */
export const RESTART_FAILED = "L'ordinateur n'a pas pu être redémarré";

/** How long one tool may take to answer, ms. */
const RUN_TIMEOUT_MS = 30_000;

/** Runs a command with no window and no input (see `RunCommand`). */
export const runCommand: RunCommand = (command) =>
  new Promise((resolve) => {
    const [program, ...args] = command;
    let stderr = "";
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(program!, args, { stdio: ["ignore", "ignore", "pipe"], windowsHide: true });
    } catch (error) {
      resolve({ code: null, stderr: error instanceof Error ? error.message : String(error) });
      return;
    }
    const timer = setTimeout(() => child.kill(), RUN_TIMEOUT_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4_000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });

/** The commands to try in turn on `platform` (see the module comment); none for another system. */
export function restartCommands(platform: NodeJS.Platform, env: NodeJS.ProcessEnv = process.env): string[][] {
  if (platform === "linux")
    return [
      ["systemctl", "reboot"],
      [
        "dbus-send",
        "--system",
        "--print-reply",
        "--dest=org.freedesktop.login1",
        "/org/freedesktop/login1",
        "org.freedesktop.login1.Manager.Reboot",
        "boolean:true",
      ],
    ];
  if (platform === "darwin")
    return [
      ["/usr/bin/osascript", "-e", 'tell application "System Events" to restart'],
      ["/usr/bin/osascript", "-e", 'tell application "loginwindow" to «event aevtrrst»'],
    ];
  if (platform === "win32")
    return [
      [path.win32.join(env.SystemRoot ?? env.SYSTEMROOT ?? "C:\\Windows", "System32", "shutdown.exe"), "/r", "/t", "0"],
    ];
  return [];
}

/**
 * Asks the system to restart with the first command of `restartCommands` that succeeds.
 * @throws an Error with `RESTART_FAILED` and the last tool's reason when none did.
 */
export async function restartSystem(
  platform: NodeJS.Platform = process.platform,
  run: RunCommand = runCommand,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  let reason = "système non pris en charge";
  for (const command of restartCommands(platform, env)) {
    const result = await run(command);
    if (result.code === 0) return;
    reason =
      result.stderr.trim().split("\n")[0]?.slice(0, 200) || `${path.basename(command[0]!)} : code ${result.code}`;
  }
  throw new Error(`${RESTART_FAILED} (${reason}).`);
}
