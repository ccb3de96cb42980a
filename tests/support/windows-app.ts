/**
 * The Windows app's test bench under Wine (issue 36 §2, `tests/e2e/desktop-app-windows.spec.ts`): the `.exe`
 * downloaded from the test server as a browser does (brotli, decoded) into the Windows user's Downloads, Wine's
 * Notepad opened at a known place with a known text, and what the spec reads back from X and `/proc`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "@playwright/test";
import { runUnderWine, type WinePrefix, type WineProgram } from "./wine.ts";

const run = promisify(execFile);

/** Runs an X client tool (xdotool, xclip) on X display `display`; its standard output. */
export async function xtool(display: string, file: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run(file, args, { env: { ...process.env, DISPLAY: display }, timeout: 20_000 });
  return stdout;
}

/** What Wine put on the X `CLIPBOARD` selection of `display` (Wine shares its clipboard with X), `\n` line ends. */
export async function xClipboard(display: string): Promise<string> {
  const text = await xtool(display, "/usr/bin/xclip", ["-o", "-selection", "clipboard"]).catch(() => "");
  return text.replace(/\r\n/g, "\n");
}

/**
 * Downloads the Windows build listed by `serverUrl`'s `/api/downloads` as a browser does (brotli, decoded before
 * saving; its SHA-256 checked) into the prefix's `C:\users\Public\Downloads`. Returns the `.exe`'s Windows path
 * and a figure line: the download's size, compressed and on disk.
 */
export async function downloadWindowsApp(
  serverUrl: string,
  wine: WinePrefix,
): Promise<{ exe: string; figure: string }> {
  const list = (await (await fetch(`${serverUrl}/api/downloads`)).json()) as {
    downloads: { platform: string; url: string; fileName: string; sha256: string }[];
  };
  const windows = list.downloads.find((download) => download.platform === "windows");
  if (!windows) throw new Error("Pas de version Windows dans /api/downloads");
  const response = await fetch(`${serverUrl}${windows.url}`, { headers: { "Accept-Encoding": "br" } });
  expect(response.headers.get("content-encoding")).toBe("br");
  const saved = Buffer.from(await response.arrayBuffer());
  expect(createHash("sha256").update(saved).digest("hex")).toBe(windows.sha256);
  const manifest = JSON.parse(readFileSync("build/desktop/manifest.json", "utf8")) as {
    files: { target: string; transfer: { br: number } }[];
  };
  const brotli = manifest.files.find((file) => file.target === "windows-x64")!.transfer.br;
  const downloads = path.join(wine.prefix, "drive_c", "users", "Public", "Downloads");
  mkdirSync(downloads, { recursive: true });
  writeFileSync(path.join(downloads, windows.fileName), saved);
  return {
    exe: `C:\\users\\Public\\Downloads\\${windows.fileName}`,
    figure: `téléchargement Windows : ${(brotli / 1e6).toFixed(1)} Mo (brotli), ${(saved.length / 1e6).toFixed(1)} Mo sur le disque`,
  };
}

/** The customer's program: Notepad with `note`, moved to (200, 150) and sized 700×400; its window's box, px. */
export async function openNotepad(
  wine: WinePrefix,
  display: string,
  note: string,
): Promise<{ notepad: WineProgram; box: { x: number; y: number; width: number; height: number } }> {
  writeFileSync(path.join(wine.prefix, "drive_c", "atelier.txt"), `${note}\r\n`);
  const notepad = runUnderWine(wine, "notepad", ["C:\\atelier.txt"], { console: false });
  const id = (await xtool(display, "/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "atelier"]))
    .trim()
    .split("\n")[0]!;
  await xtool(display, "/usr/bin/xdotool", ["windowmove", id, "200", "150", "windowsize", id, "700", "400"]);
  await expect
    .poll(async () =>
      (await xtool(display, "/usr/bin/xdotool", ["getwindowgeometry", "--shell", id])).includes("X=200"),
    )
    .toBe(true);
  const shell = await xtool(display, "/usr/bin/xdotool", ["getwindowgeometry", "--shell", id]);
  const value = (name: string) => Number(new RegExp(`^${name}=(\\d+)`, "m").exec(shell)![1]);
  return { notepad, box: { x: value("X"), y: value("Y"), width: value("WIDTH"), height: value("HEIGHT") } };
}

/** The Windows app's process (the Wine loader becomes it): its CPU time (s) and resident memory (MB), or null. */
export function appUsage(): { cpuSeconds: number; rssMb: number } | null {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // The Wine process names itself after the program: its argv[0] is the .exe's Windows path.
      const program = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (!/atelier-assistance[^\\/]*\.exe$/i.test(program[0] ?? "") || program.includes("--nettoyer")) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const ticks = Number(stat[11]) + Number(stat[12]);
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]!;
      return { cpuSeconds: ticks / 100, rssMb: Number(rss) / 1024 };
    } catch {
      // A process that ended meanwhile.
    }
  }
  return null;
}

/** Types `firstName` into the app's console once it asks, then reads the session code it shows (spaces removed). */
export async function sessionCodeOf(app: WineProgram, firstName: string): Promise<string> {
  await expect.poll(app.output, { timeout: 30_000 }).toContain("Votre prénom :");
  app.type(`${firstName}\r`);
  await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
  return /Code de session : ([A-Z0-9]{3}) ([A-Z0-9]{3})/u.exec(app.output())!.slice(1).join("");
}
