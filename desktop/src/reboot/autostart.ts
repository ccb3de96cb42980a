/**
 * Issue 38 §3, « Reboot and reconnect »: the desktop app registers itself to start once at the customer's next
 * sign-in, before the technician's restart, and the started process removes that entry at once. Per system:
 *
 * - **Linux** (`linuxAutostart`): an XDG autostart entry, `$XDG_CONFIG_HOME/autostart/atelier-assistance-reprise.desktop`
 *   (`~/.config/autostart/…` by default), `Exec=` the app's own command with `--reprendre <file>`, quoted as the
 *   Desktop Entry Specification says (`desktopExec`), `X-GNOME-Autostart-enabled=true`. Every desktop that follows
 *   the XDG autostart specification (GNOME, KDE, Xfce, MATE, Cinnamon, LXQt) runs it at sign-in; it is a file of
 *   the customer's own, written atomically (0600).
 * - **macOS** (`macosAutostart`): a LaunchAgent `~/Library/LaunchAgents/fr.atelier-informatique.assistance.reprise.plist`
 *   with `ProgramArguments` and `RunAtLoad`, which launchd starts at the next sign-in; the started process deletes
 *   it (`LaunchOnlyOnce` as well, should it not).
 * - **Windows** (`windows-autostart.ts`): a value of `HKCU\Software\Microsoft\Windows\CurrentVersion\RunOnce`,
 *   which Windows itself deletes before running it.
 *
 * What is registered names only the resume file, never the ticket. `system-autostart.ts` picks the system's; every
 * `remove()` is idempotent and never throws, so the resumed process, the end of a session and a failed restart
 * may all call it.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** One registration for the next sign-in (see the module comment). */
export interface Autostart {
  /** Where the entry goes, for the customer and the logs (a file, or a registry value). */
  readonly where: string;
  /**
   * Registers `command` (`[program, ...arguments]`) to run once at the next sign-in, replacing an earlier entry.
   * @throws an Error with a French message when it cannot be written.
   */
  register(command: readonly string[]): Promise<void>;
  /** Removes the entry if there is one; never throws. @returns whether one was removed. */
  remove(): Promise<boolean>;
  /** Whether an entry is registered now (false when it cannot be read). */
  registered(): Promise<boolean>;
}

/** The entry's name, the same on every system (a file's stem, a registry value's name, a launchd label). */
export const AUTOSTART_NAME = "atelier-assistance-reprise";
/** The macOS LaunchAgent's label (reverse DNS, as launchd expects). */
export const LAUNCH_AGENT_LABEL = "fr.atelier-informatique.assistance.reprise";

/** French: the entry could not be written (with the system's reason appended). */
export const AUTOSTART_FAILED = "Le logiciel n'a pas pu s'inscrire pour revenir après le redémarrage";

/** Where the files of the current user live (tests pass a temporary HOME and environment). */
export type UserPlace = { home?: string; env?: NodeJS.ProcessEnv };

/** Characters that make an `Exec=` argument need quotes (Desktop Entry Specification, « The Exec key »). */
const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of an `Exec=` value: as is when it has no reserved character, else in double quotes with `"`,
 * `` ` ``, `$` and `\` escaped by a backslash; `%` doubled (field codes); then the string type's own escape
 * (`\` → `\\`), which the specification applies before the quoting rule. @throws on a control character.
 */
export function desktopExecArgument(argument: string): string {
  const control = [...argument].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (control || argument === "") throw new Error(`${AUTOSTART_FAILED} (argument invalide).`);
  const quoted = RESERVED.test(argument) ? `"${argument.replace(/["`$\\]/g, (c) => `\\${c}`)}"` : argument;
  return quoted.replaceAll("%", "%%").replaceAll("\\", "\\\\");
}

/** `command` as an `Exec=` value (see `desktopExecArgument`). */
export function desktopExec(command: readonly string[]): string {
  return command.map(desktopExecArgument).join(" ");
}

/** The string type's escapes (`\s`, `\n`, `\t`, `\r`; any other escaped character stands for itself). */
const STRING_ESCAPES: Record<string, string> = { s: " ", n: "\n", t: "\t", r: "\r" };

/**
 * Reads an `Exec=` value back into its arguments, as a desktop does (the string escapes, then quotes and field
 * codes; `%%` → `%`, other field codes dropped). For tests and checks: it follows the specification, not
 * `desktopExec`. @throws on an unterminated quote.
 */
export function parseDesktopExec(value: string): string[] {
  // As GLib does: the string escapes, then the field codes over the whole line, then the quotes.
  const text = value
    .replace(/\\(.)/g, (_, c: string) => STRING_ESCAPES[c] ?? c)
    .replace(/%(.)/g, (_, c: string) => (c === "%" ? "%" : ""));
  const args: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      current ??= "";
      for (i++; i < text.length && text[i] !== '"'; i++) current += text[i] === "\\" ? text[++i]! : text[i]!;
      if (i >= text.length) throw new Error("guillemet non fermé dans Exec=");
    } else if (c === " " || c === "\t") {
      if (current !== null) args.push(current);
      current = null;
    } else current = (current ?? "") + c;
  }
  if (current !== null) args.push(current);
  return args;
}

/** Writes `content` to `file` through a temporary file and a rename (a half-written entry is never run). */
function writeAtomically(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  renameSync(temporary, file);
}

/** A file-backed entry (Linux, macOS): `render` turns the command into the file's text. */
function fileAutostart(file: string, render: (command: readonly string[]) => string): Autostart {
  return {
    where: file,
    async register(command) {
      try {
        writeAtomically(file, render(command));
      } catch (error) {
        throw new Error(`${AUTOSTART_FAILED} (${error instanceof Error ? error.message : String(error)}).`, {
          cause: error,
        });
      }
    },
    async remove() {
      try {
        readFileSync(file);
      } catch {
        return false;
      }
      try {
        rmSync(file, { force: true });
        return true;
      } catch {
        return false;
      }
    },
    async registered() {
      try {
        readFileSync(file);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The XDG autostart entry's path for `place`. */
export function linuxAutostartFile({ home = homedir(), env = process.env }: UserPlace = {}): string {
  const config =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  return path.join(config, "autostart", `${AUTOSTART_NAME}.desktop`);
}

/** Linux: the XDG autostart entry (see the module comment). */
export function linuxAutostart(place: UserPlace = {}): Autostart {
  return fileAutostart(linuxAutostartFile(place), (command) =>
    [
      "[Desktop Entry]",
      "Type=Application",
      "Name=Assistance à distance de l'Atelier (reprise après redémarrage)",
      "Comment=Reprend la session d'assistance une seule fois, puis s'efface",
      `Exec=${desktopExec(command)}`,
      "Terminal=false",
      "NoDisplay=true",
      "X-GNOME-Autostart-enabled=true",
      "",
    ].join("\n"),
  );
}

/** `text` escaped for a plist's XML. */
function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The LaunchAgent's path for `place`. */
export function macosAutostartFile({ home = homedir() }: UserPlace = {}): string {
  return path.join(home, "Library", "LaunchAgents", `${LAUNCH_AGENT_LABEL}.plist`);
}

/** macOS: the LaunchAgent (see the module comment). */
export function macosAutostart(place: UserPlace = {}): Autostart {
  return fileAutostart(macosAutostartFile(place), (command) =>
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
      "<dict>",
      "  <key>Label</key>",
      `  <string>${LAUNCH_AGENT_LABEL}</string>`,
      "  <key>ProgramArguments</key>",
      "  <array>",
      ...command.map((argument) => `    <string>${xml(argument)}</string>`),
      "  </array>",
      "  <key>RunAtLoad</key>",
      "  <true/>",
      "  <key>LaunchOnlyOnce</key>",
      "  <true/>",
      "</dict>",
      "</plist>",
      "",
    ].join("\n"),
  );
}
