/**
 * Issue 38 §2 « Files both ways, with consent »: the system's own dialogs around files, each a program of the
 * system run by the app's process (the window's page cannot give a file's path: a webview's `<input type=file>`
 * hands the page the file's content, never where it is, and the page has no file access of its own):
 *
 * - `chooseFile`: a file chooser, « Choisir le fichier à envoyer au technicien »: zenity's `--file-selection` (or
 *   KDE's `kdialog --getopenfilename`) on Linux, AppleScript's `choose file` on macOS, Windows Forms'
 *   `OpenFileDialog` through PowerShell on Windows. The path picked; null when the customer cancelled; undefined
 *   when no chooser exists here (the window then shows a field for the path).
 * - `openFolder`: the folder in the file manager (`xdg-open`, `explorer`, `open`), detached, errors ignored.
 */
import { spawn } from "node:child_process";
import { findOnPath } from "../launcher.ts";

/** The chooser's title. */
export const CHOOSER_TITLE = "Choisir le fichier à envoyer au technicien";

/** A program's outcome: exit code (null: it could not start) and standard output. */
export type RunResult = { code: number | null; output: string };
/** Runs a program and waits for it (tests give their own). */
export type Runner = (command: string, args: readonly string[]) => Promise<RunResult>;

/** The real runner: stdout read, stdin and stderr ignored; a program that cannot start gives code null. */
export const runProgram: Runner = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"], windowsHide: true });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", () => resolve({ code: null, output }));
    child.once("close", (code) => resolve({ code, output }));
  });

// PowerShell prints the path in UTF-8 (the console's code page would mangle accents) only when OK was pressed.
const WINDOWS_CHOOSER = [
  "[Console]::OutputEncoding = [Text.Encoding]::UTF8",
  "Add-Type -AssemblyName System.Windows.Forms",
  "$d = New-Object System.Windows.Forms.OpenFileDialog",
  `$d.Title = '${CHOOSER_TITLE.replace(/'/g, "''")}'`,
  "if ($d.ShowDialog() -eq [System.Windows.Forms.DialogResult]::OK) { [Console]::Out.Write($d.FileName) }",
].join("; ");

/** The commands tried for a chooser on `platform`, in order (`[program, ...args]`). */
export function chooserCommands(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[][] {
  if (platform === "darwin") return [["osascript", "-e", `POSIX path of (choose file with prompt "${CHOOSER_TITLE}")`]];
  if (platform === "win32") return [["powershell.exe", "-NoProfile", "-STA", "-Command", WINDOWS_CHOOSER]];
  const commands: string[][] = [];
  const zenity = findOnPath("zenity", env);
  if (zenity) commands.push([zenity, "--file-selection", `--title=${CHOOSER_TITLE}`]);
  const kdialog = findOnPath("kdialog", env);
  if (kdialog) commands.push([kdialog, "--getopenfilename", env.HOME ?? ".", "--title", CHOOSER_TITLE]);
  return commands;
}

/**
 * Opens the system's file chooser (see the module comment). @returns the path picked, null when cancelled,
 * undefined when no chooser could start. Never rejects.
 */
export async function chooseFile(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  run: Runner = runProgram,
): Promise<string | null | undefined> {
  for (const [command, ...args] of chooserCommands(platform, env)) {
    const { code, output } = await run(command!, args);
    if (code === null) continue;
    const picked = output.replace(/\r?\n$/, "");
    return code === 0 && picked ? picked : null;
  }
  return undefined;
}

/** The command that shows `folder` in the file manager of `platform`. */
export function openFolderCommand(folder: string, platform: NodeJS.Platform): string[] {
  if (platform === "win32") return ["explorer.exe", folder];
  if (platform === "darwin") return ["open", folder];
  return ["xdg-open", folder];
}

/** Shows `folder` in the file manager (detached: it outlives nothing of the app); errors are ignored. */
export function openFolder(folder: string, platform: NodeJS.Platform = process.platform): void {
  const [command, ...args] = openFolderCommand(folder, platform);
  try {
    const child = spawn(command!, args, { detached: true, stdio: "ignore", windowsHide: false });
    child.once("error", () => {});
    child.unref();
  } catch {
    // No file manager: the line in the app still says where the file is.
  }
}
