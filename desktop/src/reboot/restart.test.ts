/**
 * Issue 38 §3: how the app asks each system to restart, through a fake command runner (nothing restarts here):
 * Linux `systemctl reboot`, else logind over D-Bus; macOS System Events, else loginwindow; Windows
 * `shutdown.exe /r /t 0` from the system folder; the tool's own refusal in a French error when none works.
 */
import { describe, expect, it } from "vitest";
import { RESTART_FAILED, restartSystem, type RunCommand } from "./restart.ts";

/** A runner answering `codes` in turn (then 0), recording the commands. */
function runner(codes: number[], stderr = "") {
  const commands: string[][] = [];
  const run: RunCommand = async (command) => {
    commands.push([...command]);
    return { code: codes.shift() ?? 0, stderr };
  };
  return { run, commands };
}

describe("asking the system to restart", () => {
  it("Linux: systemctl reboot", async () => {
    const fake = runner([0]);
    await restartSystem("linux", fake.run);
    expect(fake.commands).toEqual([["systemctl", "reboot"]]);
  });

  it("Linux: logind over D-Bus when systemctl refuses", async () => {
    const fake = runner([1, 0]);
    await restartSystem("linux", fake.run);
    expect(fake.commands[1]).toEqual([
      "dbus-send",
      "--system",
      "--print-reply",
      "--dest=org.freedesktop.login1",
      "/org/freedesktop/login1",
      "org.freedesktop.login1.Manager.Reboot",
      "boolean:true",
    ]);
  });

  it("macOS: System Events, else loginwindow", async () => {
    const fake = runner([1, 0]);
    await restartSystem("darwin", fake.run);
    expect(fake.commands).toEqual([
      ["/usr/bin/osascript", "-e", 'tell application "System Events" to restart'],
      ["/usr/bin/osascript", "-e", 'tell application "loginwindow" to «event aevtrrst»'],
    ]);
  });

  it("Windows: shutdown.exe of the system folder", async () => {
    const fake = runner([0]);
    await restartSystem("win32", fake.run, { SystemRoot: "D:\\Win" });
    expect(fake.commands).toEqual([["D:\\Win\\System32\\shutdown.exe", "/r", "/t", "0"]]);
  });

  it("rejects in French with the tool's reason when nothing works", async () => {
    const fake = runner([1, 1], "Failed to reboot system via logind: Access denied\nmore");
    await expect(restartSystem("linux", fake.run)).rejects.toThrow(
      `${RESTART_FAILED} (Failed to reboot system via logind: Access denied).`,
    );
    await expect(restartSystem("aix", runner([]).run)).rejects.toThrow(RESTART_FAILED);
  });
});
