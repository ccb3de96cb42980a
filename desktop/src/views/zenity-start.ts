/**
 * Issue 40: zenity's first question (`ZenityAppView.askStart`), moved here so that `zenity.ts` stays under 400
 * lines. A `zenity --entry` asks « Votre prénom » (« Démarrer » / « Annuler »); its extra button « J'ai un code
 * d'appairage » — the secondary way in, for a session started on the website — opens a second entry for the
 * pairing code, whose own extra button goes back to the first name. A code typed where the first name is asked
 * still pairs (`readStartAnswer`). The texts are `START_TEXTS`, as in the window and the terminal.
 */
import type { StartTyped } from "../start-answer.ts";
import { BUTTON_LABELS, START_TEXTS } from "./texts.ts";

/** A dialog run: zenity's exit code (0: the OK button; 1: « Annuler », an extra button or closed) and its stdout. */
export type ZenityRun = (args: string[]) => { done: Promise<{ code: number | null; output: string }> };

/** The two entries' titles (tests find the dialogs by them). */
export type StartTitles = { name: string; code: string };

/** The most times the customer may go from one entry to the other before the question counts as closed. */
const MAX_SWITCHES = 20;

/** The arguments of the entry for `field`, with `error` (the last mistake) above its label. */
export function startEntry(
  field: StartTyped["field"],
  titles: StartTitles,
  error: string | null,
  escape: (text: string) => string,
): string[] {
  const code = field === "code";
  const text = [
    code ? START_TEXTS.codeExplain : START_TEXTS.explain,
    ...(error ? ["", `⚠ ${error}`] : []),
    "",
    code ? START_TEXTS.codeLabel : START_TEXTS.label,
  ];
  return [
    "--entry",
    `--title=${code ? titles.code : titles.name}`,
    `--text=${escape(text.join("\n"))}`,
    `--ok-label=${BUTTON_LABELS.start}`,
    "--cancel-label=Annuler",
    `--extra-button=${code ? START_TEXTS.nameLink : START_TEXTS.codeLink}`,
    "--width=460",
  ];
}

/**
 * Asks the first question, starting with `field`'s entry (the pairing code's after a refused code). @returns what
 * was typed and where, or null when the customer cancelled or closed a dialog.
 */
export async function askStartEntries(
  run: ZenityRun,
  titles: StartTitles,
  error: string | null,
  field: StartTyped["field"],
  escape: (text: string) => string,
): Promise<StartTyped | null> {
  let shown = field;
  let said = error;
  for (let turn = 0; turn < MAX_SWITCHES; turn++) {
    const answer = await run(startEntry(shown, titles, said, escape)).done;
    if (answer.code === 0) return { text: answer.output.replace(/\r?\n$/, ""), field: shown };
    const other = shown === "code" ? START_TEXTS.nameLink : START_TEXTS.codeLink;
    // An extra button prints its label and exits with 1, as « Annuler » does (which prints nothing).
    if (answer.code !== 1 || answer.output.trim() !== other) return null;
    shown = shown === "code" ? "name" : "code";
    said = null;
  }
  return null;
}
