/**
 * A fake `zenity` for the desktop app's view tests (issue 38): a shell script in a temporary folder that records
 * each run's arguments, then runs `cases` (branches of a shell `case` on all its arguments, e.g.
 * `*"Fichier"*) exit 0 ;;`); a run no branch ends stays open until killed, as a dialog does.
 *
 * Each run's record is appended in one write: dialogs started together (the status and a question) must not
 * interleave their arguments (a CI run read a sign dialog's text as the status dialog's).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type FakeZenity = {
  /** The script, to give the view as its zenity. */
  file: string;
  /** Its folder, for files the branches read (`"${folder}/answer"`). */
  folder: string;
  /** Every run's arguments so far, in the order the runs recorded them. */
  calls(): string[][];
  /** Removes the folder. */
  remove(): void;
};

export function fakeZenity(prefix: string, cases: (folder: string) => string): FakeZenity {
  const folder = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const file = path.join(folder, "zenity");
  writeFileSync(
    file,
    `#!/bin/sh
record="${folder}/call.$$"
for arg in "$@"; do printf '%s\\0' "$arg" >> "$record"; done
printf '\\001\\n' >> "$record"
cat "$record" >> "${folder}/calls"
rm -f "$record"
case "$*" in
${cases(folder)}
esac
exec cat > /dev/null
`,
  );
  chmodSync(file, 0o755);
  const calls = () =>
    existsSync(path.join(folder, "calls"))
      ? readFileSync(path.join(folder, "calls"), "utf8")
          .split("\u0001\n")
          .filter(Boolean)
          .map((call) => call.split("\0").filter(Boolean))
      : [];
  return { file, folder, calls, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
