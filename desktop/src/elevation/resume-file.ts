/**
 * How the resume ticket reaches the app relaunched as administrator (issue 36 §4). Not the environment: a process
 * started by `runas` gets a fresh one. Not the command line either, which other programs of the session can read:
 * a file `reprise.json` in a private folder (`<temp>/atelier-reprise-XXXXXX`, made by `mkdtemp`, mode 0700; the
 * file 0600, created exclusively), whose path alone goes on the command line after `--reprendre`. The new
 * process reads the file once and deletes it with its folder (`takeResumeFile`), whatever it holds; the old one
 * deletes it itself when the relaunch went nowhere (`removeResumeFile`). The ticket is never printed nor logged.
 *
 * On Windows the folder inherits the user's temporary folder's permissions (the user, SYSTEM, Administrators),
 * which is what lets an administrator account answering the UAC prompt for a standard user read it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { ResumeTicket } from "#app/remote-support/elevation-protocol.ts";
import { removeFolder } from "../native/private-folder.ts";

/** The option naming the file (`cli.ts`). */
export const RESUME_FLAG = "--reprendre";
/** The private folder's prefix (distinct from `native/private-folder.ts`'s `atelier-<pid>-`, never swept by it). */
export const RESUME_FOLDER_PREFIX = "atelier-reprise-";
export const RESUME_FILE_NAME = "reprise.json";

/** What the file holds: the ticket and the session it is for. */
export const ResumeFileContent = z.object({ ticket: ResumeTicket, sessionCode: z.string().min(1).max(32) });
export type ResumeFileContent = z.infer<typeof ResumeFileContent>;

/** French: the file cannot be used (missing, already read, not ours). */
export const RESUME_FILE_UNUSABLE =
  "Le relancement en administrateur n'a pas pu reprendre la session (fichier de reprise illisible ou déjà utilisé) : " +
  "relancez le logiciel normalement.";

/** Writes `content` to a new private folder of `temp`. @returns the file's path. @throws on a file system error. */
export function writeResumeFile(content: ResumeFileContent, temp = tmpdir()): string {
  const folder = mkdtempSync(path.join(temp, RESUME_FOLDER_PREFIX));
  const file = path.join(folder, RESUME_FILE_NAME);
  writeFileSync(file, JSON.stringify(content), { mode: 0o600, flag: "wx" });
  return file;
}

/** Whether `file` has the shape this module gives (so that `--reprendre` can never delete anything else). */
function ours(file: string): boolean {
  return path.basename(file) === RESUME_FILE_NAME && path.basename(path.dirname(file)).startsWith(RESUME_FOLDER_PREFIX);
}

/** Deletes `file` and its folder when they are this module's; never throws. */
export function removeResumeFile(file: string): void {
  if (!ours(file)) return;
  // File by file (Bun's recursive rm fails under Wine); a folder locked for a moment stays for the system's
  // temporary folder cleaning.
  removeFolder(path.dirname(file));
}

/**
 * Reads the file `--reprendre` names, then deletes it and its folder (single use, even when its content is
 * wrong). @throws an Error with `RESUME_FILE_UNUSABLE` when it is not ours, missing or malformed.
 */
export function takeResumeFile(file: string): ResumeFileContent {
  if (!ours(file)) throw new Error(RESUME_FILE_UNUSABLE);
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    throw new Error(RESUME_FILE_UNUSABLE);
  } finally {
    removeResumeFile(file);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(RESUME_FILE_UNUSABLE);
  }
  const content = ResumeFileContent.safeParse(parsed);
  if (!content.success) throw new Error(RESUME_FILE_UNUSABLE);
  return content.data;
}
