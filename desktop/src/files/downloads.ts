/**
 * Issue 38 §2 « Files both ways, with consent »: where a file from the technician goes on the customer's computer,
 * the Downloads folder, and how its name is chosen there. A technician's name is never trusted as a path: only
 * `safeFileName(name)` (a bare name) is joined to the folder, the joined path's parent is checked to be the folder
 * itself, and an existing file is never replaced (« facture (1).pdf », « facture (2).pdf »…).
 *
 * The folder per system:
 * - Linux: `XDG_DOWNLOAD_DIR` of `~/.config/user-dirs.dirs` (`$XDG_CONFIG_HOME` when set), else `~/Téléchargements`
 *   when it exists (a French desktop without that file), else `~/Downloads`;
 * - Windows: `SHGetKnownFolderPath(FOLDERID_Downloads)` (`windows-downloads-native.ts`, through koffi: the folder
 *   may have been moved to another drive), else `%USERPROFILE%\Downloads`;
 * - macOS: `~/Downloads`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { safeFileName } from "#app/remote-support/file-protocol.ts";

/** What the folder's lookup reads of the system (tests give their own). */
export type DownloadsContext = {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** Windows: the known folder's path (`SHGetKnownFolderPath`), null when it cannot be read. */
  knownFolder?: () => Promise<string | null>;
};

/** The process's own context (this system, its environment, its home folder). */
export function systemDownloadsContext(platform: NodeJS.Platform = process.platform): DownloadsContext {
  return {
    platform,
    env: process.env,
    home: os.homedir(),
    knownFolder: async () => {
      const { knownDownloadsFolder } = await import("./windows-downloads-native.ts");
      return knownDownloadsFolder();
    },
  };
}

/**
 * Reads `XDG_DOWNLOAD_DIR` from the text of a `user-dirs.dirs` file: `"$HOME/Téléchargements"` or an absolute
 * path, in double quotes. @returns the absolute folder, or null when the line is absent, relative, or `$HOME`
 * itself (the spec's way to say « disabled »).
 */
export function parseUserDirs(text: string, home: string): string | null {
  const line = /^\s*XDG_DOWNLOAD_DIR\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/m.exec(text);
  if (!line) return null;
  const value = line[1]!.replace(/\\(.)/g, "$1");
  const resolved = value.startsWith("$HOME") ? path.join(home, value.slice("$HOME".length)) : value;
  if (!path.isAbsolute(resolved) || path.resolve(resolved) === path.resolve(home)) return null;
  return path.resolve(resolved);
}

const isFolder = (folder: string) => {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The customer's Downloads folder (see the module comment), as an absolute path; it may not exist yet (the
 * receiver creates it). Never throws.
 */
export async function downloadsFolder(context: DownloadsContext = systemDownloadsContext()): Promise<string> {
  const { platform, env, home } = context;
  if (platform === "win32") {
    const known = await context.knownFolder?.().catch(() => null);
    if (known && path.win32.isAbsolute(known)) return known;
    return path.win32.join(env.USERPROFILE || home, "Downloads");
  }
  if (platform === "linux") {
    const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : null;
    const file = path.join(config ?? path.join(home, ".config"), "user-dirs.dirs");
    try {
      const folder = parseUserDirs(readFileSync(file, "utf8"), home);
      if (folder) return folder;
    } catch {
      // No such file: the usual names below.
    }
    const french = path.join(home, "Téléchargements");
    if (isFolder(french)) return french;
  }
  return path.join(home, "Downloads");
}

/**
 * The path of the file `name` would be saved as in `folder`, or null when `name` has nothing usable
 * (`safeFileName`). The result's parent is always `folder` (checked once more after joining).
 * `suffix`: `(n)` before the extension for the n-th other name (« facture (1).pdf »), 0 for none.
 */
export function targetPath(folder: string, name: string, suffix = 0): string | null {
  const safe = safeFileName(name);
  if (!safe) return null;
  const extension = path.extname(safe);
  const stem = extension ? safe.slice(0, -extension.length) : safe;
  const chosen = suffix > 0 ? `${stem} (${suffix})${extension}` : safe;
  const base = path.resolve(folder);
  const joined = path.resolve(base, chosen);
  return path.dirname(joined) === base ? joined : null;
}

/** How many other names are tried before giving up (« facture (1).pdf » … « facture (999).pdf »). */
export const MAX_OTHER_NAMES = 999;

/** The first free path for `name` in `folder` (`targetPath` with 0, 1, 2… as suffix); null when none is free. */
export function freePath(folder: string, name: string, taken: (file: string) => boolean = existsSync): string | null {
  for (let suffix = 0; suffix <= MAX_OTHER_NAMES; suffix++) {
    const candidate = targetPath(folder, name, suffix);
    if (candidate === null) return null;
    if (!taken(candidate)) return candidate;
  }
  return null;
}

/** The folder's name as the customer knows it (« Téléchargements », « Downloads »). */
export function folderLabel(folder: string): string {
  return path.basename(folder) || folder;
}
