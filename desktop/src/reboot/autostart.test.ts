/**
 * Issue 38 §3: the entry that brings the app back at the next sign-in, Linux and macOS, as real files in a
 * temporary HOME: where it goes, what it says (an `Exec=` line a desktop reads back into the very arguments, even
 * with spaces, quotes, `$`, `%` and backslashes; a LaunchAgent with `RunAtLoad`), that it replaces an earlier one,
 * and that removing it is idempotent and leaves nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAutostart } from "./system-autostart.ts";
import {
  AUTOSTART_FAILED,
  desktopExec,
  LAUNCH_AGENT_LABEL,
  linuxAutostart,
  macosAutostart,
  parseDesktopExec,
} from "./autostart.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "autostart-home-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const COMMAND = [
  "/home/marie/Téléchargements/atelier assistance/atelier-assistance-1.0-linux",
  "--server",
  "https://atelier.example/a?b=1&c=100%",
  "--reprendre",
  String.raw`/home/marie/.local/state/atelier-assistance/atelier-reprise-"$x"\y/reprise.json`,
];

describe("the Linux autostart entry", () => {
  it("goes to ~/.config/autostart and runs exactly the app's command", async () => {
    const autostart = linuxAutostart({ home, env: {} });
    const file = path.join(home, ".config", "autostart", "atelier-assistance-reprise.desktop");
    expect(autostart.where).toBe(file);
    expect(await autostart.registered()).toBe(false);
    await autostart.register(COMMAND);
    expect(await autostart.registered()).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text.split("\n")).toEqual(
      expect.arrayContaining(["[Desktop Entry]", "Type=Application", "X-GNOME-Autostart-enabled=true"]),
    );
    const exec = /^Exec=(.*)$/m.exec(text)![1]!;
    expect(parseDesktopExec(exec)).toEqual(COMMAND);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["atelier-assistance-reprise.desktop"]);
  });

  it("follows XDG_CONFIG_HOME, replaces an earlier entry, and removes it once", async () => {
    const config = path.join(home, "conf");
    const autostart = linuxAutostart({ home, env: { XDG_CONFIG_HOME: config } });
    await autostart.register(["/opt/a"]);
    await autostart.register(["/opt/b", "--reprendre", "/x/reprise.json"]);
    const file = path.join(config, "autostart", "atelier-assistance-reprise.desktop");
    expect(readFileSync(file, "utf8")).toContain("Exec=/opt/b --reprendre /x/reprise.json\n");
    expect(await autostart.remove()).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await autostart.remove()).toBe(false);
    expect(await autostart.registered()).toBe(false);
  });

  it("quotes as the Desktop Entry Specification says, which GLib reads back the same", () => {
    const exec = desktopExec(COMMAND);
    expect(exec).toContain('"/home/marie/Téléchargements/atelier assistance/atelier-assistance-1.0-linux"');
    expect(exec).toContain("100%%");
    // GLib's own reading of the line (`gio launch` of a desktop file whose Exec prints its arguments).
    const file = path.join(home, "echo.desktop");
    const out = path.join(home, "out.txt");
    const printer = ["/bin/sh", "-c", 'printf "%s\\n" "$@" > "$0"', out, ...COMMAND];
    writeFileSync(file, `[Desktop Entry]\nType=Application\nName=t\nExec=${desktopExec(printer)}\n`);
    execFileSync("gio", ["launch", file], { stdio: "ignore", timeout: 10_000 });
    for (let i = 0; i < 50 && !existsSync(out); i++) execFileSync("sleep", ["0.1"]);
    expect(readFileSync(out, "utf8").split("\n").slice(0, -1)).toEqual(COMMAND);
  });

  it("refuses an argument with a line break, in French", async () => {
    await expect(linuxAutostart({ home, env: {} }).register(["/opt/a", "x\ny"])).rejects.toThrow(AUTOSTART_FAILED);
  });
});

describe("the macOS LaunchAgent", () => {
  it("goes to ~/Library/LaunchAgents with the arguments and RunAtLoad, and is removed once", async () => {
    const autostart = await createAutostart("darwin", { home });
    const file = path.join(home, "Library", "LaunchAgents", `${LAUNCH_AGENT_LABEL}.plist`);
    expect(autostart.where).toBe(file);
    await autostart.register(["/Applications/Atelier & co", "--reprendre", "/u/reprise.json"]);
    const text = readFileSync(file, "utf8");
    expect(text).toContain(`<key>Label</key>\n  <string>${LAUNCH_AGENT_LABEL}</string>`);
    expect(text).toContain(
      "<array>\n    <string>/Applications/Atelier &amp; co</string>\n    <string>--reprendre</string>\n" +
        "    <string>/u/reprise.json</string>\n  </array>",
    );
    expect(text).toContain("<key>RunAtLoad</key>\n  <true/>");
    expect(await macosAutostart({ home }).remove()).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await autostart.remove()).toBe(false);
  });
});

describe("another system", () => {
  it("has no autostart and says so in French", async () => {
    const autostart = await createAutostart("aix");
    await expect(autostart.register(["/a"])).rejects.toThrow(AUTOSTART_FAILED);
    expect(await autostart.remove()).toBe(false);
  });
});
