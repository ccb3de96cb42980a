/**
 * Issue 38 §2 « Files both ways, with consent », in zenity's interface (`views/zenity.ts`): each question of
 * `FilesModel` — the « fichiers » permission, then « Jean veut vous envoyer « facture.pdf » (1,2 Mo). Accepter ? »
 * — opens a `zenity --question` of its own (beside the status dialog, like the chat's dialogs), answered with
 * « Autoriser »/« Accepter » or « Refuser » (closing it refuses). A question withdrawn meanwhile (the technician
 * cancelled) closes its dialog. The progress lines go into the status dialog (`zenityFileLines`); the file to send
 * is picked with zenity's `--file-selection` (`chooser.ts`, started by the app when the technician asks).
 */
import type { ChildProcess } from "node:child_process";
import { FILE_TEXTS, type FileQuestion, type FilesModel, questionText } from "./file-texts.ts";

/** A zenity run: its process and its outcome. */
export type ZenityFilesRun = { child: ChildProcess; done: Promise<{ code: number | null; output: string }> };

export type ZenityFilesOptions = {
  run(args: string[]): ZenityFilesRun;
  /** The dialogs' title. */
  title: string;
  /** Text → Pango markup. */
  escape(text: string): string;
};

/** The question dialog's arguments for `question`. */
export function fileQuestionArgs(question: FileQuestion, title: string, escape: (text: string) => string): string[] {
  const text =
    question.kind === "permission"
      ? `${questionText(question)}\n\n${FILE_TEXTS.permissionDetail}`
      : questionText(question);
  return [
    "--question",
    `--title=${title}`,
    `--text=${escape(text)}`,
    `--ok-label=${question.kind === "permission" ? FILE_TEXTS.allow : FILE_TEXTS.accept}`,
    `--cancel-label=${FILE_TEXTS.decline}`,
    "--width=460",
  ];
}

/** The file questions of one zenity interface (see the module comment). */
export class ZenityFiles {
  readonly #options: ZenityFilesOptions;
  #open: { id: string; child: ChildProcess } | null = null;
  readonly #answered = new Set<string>();
  #closed = false;

  constructor(options: ZenityFilesOptions) {
    this.#options = options;
  }

  /** Shows the model's question, if a new one; `answer` gets the customer's answer (true: accepted). */
  update(files: FilesModel | null | undefined, answer: ((accept: boolean) => boolean) | undefined): void {
    if (this.#closed) return;
    const question = files?.question ?? null;
    if (this.#open && this.#open.id !== question?.id) {
      this.#open.child.kill();
      this.#open = null;
    }
    if (!question || !answer || this.#open || this.#answered.has(question.id)) return;
    const run = this.#options.run(fileQuestionArgs(question, this.#options.title, this.#options.escape));
    const open = { id: question.id, child: run.child };
    this.#open = open;
    void run.done.then(({ code }) => {
      if (this.#open !== open || this.#closed) return;
      this.#open = null;
      this.#answered.add(question.id);
      answer(code === 0);
    });
  }

  /** Closes the open dialog; no other opens (the app stops). */
  close(): void {
    this.#closed = true;
    this.#open?.child.kill();
    this.#open = null;
  }
}
