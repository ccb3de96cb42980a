/**
 * Issue 38 §2 « Files both ways, with consent »: what every interface of the app says about files (the terminal
 * `ui.ts`, the window `window-state.ts`, zenity's dialogs), from one `FilesModel`, as `views/texts.ts` does for
 * the rest. Pure: no I/O.
 */
import { formatFileSize } from "#app/remote-support/file-protocol.ts";
import { formatSpeed, formatTimeLeft } from "./speed.ts";

/** The question the customer answers now: the « fichiers » permission (once), or a file offered. */
export type FileQuestion =
  { kind: "permission"; id: string } | { kind: "offer"; id: string; from: string | null; name: string; size: number };

/** Where one transfer stands. `paused`: the link dropped, it resumes by itself. */
export type TransferState =
  "asking" | "waiting" | "running" | "paused" | "checking" | "done" | "declined" | "cancelled" | "failed";

/** One transfer as the views show it. Bytes, bytes/s, s. */
export type TransferModel = {
  id: string;
  direction: "to-customer" | "to-technician";
  name: string;
  size: number;
  done: number;
  state: TransferState;
  /** French: why it failed or was cancelled, else "". */
  message: string;
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  /** A received file's final name in the Downloads folder, once saved. */
  savedAs: string | null;
};

/** What the views show of files (`ScreenModel.files`). */
export type FilesModel = {
  question: FileQuestion | null;
  /** Under way first, then the last ones finished. */
  transfers: readonly TransferModel[];
  /** The customer can send a file now: a technician joined and the link is up. */
  available: boolean;
  /** The Downloads folder's name (« Téléchargements »). */
  folderName: string;
  /** No file chooser here: the window shows a field for the file's path. */
  pathField: boolean;
  /** The technician asked the customer to send a file. */
  requested: boolean;
};

/** The sentences and labels. */
export const FILE_TEXTS = {
  heading: "Fichiers",
  permission: "Autoriser l'échange de fichiers avec le technicien ?",
  permissionDetail:
    "Le technicien pourra vous proposer des fichiers (vous accepterez chacun) et vous demander d'en envoyer.",
  allow: "Autoriser",
  accept: "Accepter",
  decline: "Refuser",
  send: "Envoyer un fichier au technicien",
  cancel: "Annuler",
  openFolder: "Ouvrir le dossier",
  pathLabel: "Chemin du fichier à envoyer",
  pathButton: "Envoyer",
  requested: "Le technicien vous demande un fichier.",
  requestedKeys: "Le technicien vous demande un fichier : appuyez sur F, puis tapez son chemin et Entrée.",
  paused: "connexion perdue, le transfert reprendra tout seul",
  checking: "vérification…",
  waiting: "en attente de la réponse du technicien…",
  keyQuestion: "O : accepter · N : refuser.",
  keySend: "F : envoyer un fichier au technicien (tapez ensuite son chemin).",
  keyCancel: "X : annuler le transfert en cours.",
  keyOpen: "D : ouvrir le dossier où les fichiers reçus sont enregistrés.",
  draft: "Chemin du fichier à envoyer (Entrée : envoyer, Échap : annuler) : ",
  declinedByTechnician: "Le technicien a refusé le fichier.",
  interrupted: "Le transfert a été interrompu par la coupure de connexion : envoyez le fichier de nouveau.",
  noChooser: "Aucune fenêtre de choix de fichier sur cet ordinateur : tapez le chemin du fichier.",
  unavailable: "Les fichiers ne s'échangent qu'avec un technicien connecté à la session.",
} as const;

/** « Jean veut vous envoyer « facture.pdf » (1,2 Mo). Accepter ? », or the permission's question. */
export function questionText(question: FileQuestion): string {
  if (question.kind === "permission") return FILE_TEXTS.permission;
  return `${question.from || "Le technicien"} veut vous envoyer « ${question.name} » (${formatFileSize(question.size)}). Accepter ?`;
}

/** Whether a transfer is still under way. */
export function active(transfer: TransferModel): boolean {
  return ["waiting", "running", "paused", "checking"].includes(transfer.state);
}

/** A transfer's progress, 0 to 100 (100 for an empty file). */
export function percent(transfer: TransferModel): number {
  return transfer.size > 0 ? Math.floor((transfer.done / transfer.size) * 100) : 100;
}

/**
 * One line for one transfer: « Réception de « facture.pdf » : 45 % (540 Ko sur 1,2 Mo) · 850 Ko/s · encore 2 s »,
 * « Enregistré dans Téléchargements : facture.pdf », « Envoyé au technicien : journal.txt », or why it stopped.
 */
export function transferLine(transfer: TransferModel, folderName: string): string {
  const incoming = transfer.direction === "to-customer";
  const what = `« ${transfer.name} »`;
  switch (transfer.state) {
    case "done":
      return incoming
        ? `Enregistré dans ${folderName} : ${transfer.savedAs ?? transfer.name}`
        : `Envoyé au technicien : ${transfer.name}`;
    case "declined":
      return incoming ? `Fichier ${what} refusé.` : `Le technicien a refusé ${what}.`;
    case "cancelled":
    case "failed":
      return `${incoming ? "Réception" : "Envoi"} de ${what} arrêté : ${transfer.message}`;
    case "asking":
      return `Fichier ${what} proposé par le technicien.`;
    case "waiting":
      return `Envoi de ${what} : ${FILE_TEXTS.waiting}`;
    default: {
      const parts = [
        `${incoming ? "Réception" : "Envoi"} de ${what} : ${percent(transfer)} % (${formatFileSize(transfer.done)} sur ${formatFileSize(transfer.size)})`,
      ];
      if (transfer.state === "paused") parts.push(FILE_TEXTS.paused);
      else if (transfer.state === "checking") parts.push(FILE_TEXTS.checking);
      else {
        if (transfer.bytesPerSecond) parts.push(formatSpeed(transfer.bytesPerSecond));
        if (transfer.secondsLeft !== null) parts.push(formatTimeLeft(transfer.secondsLeft));
      }
      return parts.join(" · ");
    }
  }
}

/** A text progress bar of `width` cells: « [██████····] ». */
export function progressBar(transfer: TransferModel, width = 20): string {
  const filled = Math.round((percent(transfer) / 100) * width);
  return `[${"█".repeat(filled)}${"·".repeat(width - filled)}]`;
}

/** Whether a received file was saved (the folder can be opened). */
export function savedOne(files: FilesModel): boolean {
  return files.transfers.some((transfer) => transfer.direction === "to-customer" && transfer.state === "done");
}

/** The terminal's « Fichiers » lines: the question and its keys, each transfer, the path being typed after F. */
export function terminalFileLines(files: FilesModel | null | undefined, draft: string | null): string[] {
  if (!files) return [];
  const lines: string[] = [];
  if (files.question) {
    lines.push(`? ${questionText(files.question)}`);
    if (files.question.kind === "permission") lines.push(`  ${FILE_TEXTS.permissionDetail}`);
    lines.push(`  ${FILE_TEXTS.keyQuestion}`);
  }
  if (files.requested && draft === null) lines.push(FILE_TEXTS.requestedKeys);
  for (const transfer of files.transfers) {
    const line = transferLine(transfer, files.folderName);
    lines.push(active(transfer) && transfer.state !== "waiting" ? `${progressBar(transfer)} ${line}` : line);
  }
  if (draft !== null) lines.push(`${FILE_TEXTS.draft}${draft}_`);
  return lines.length > 0 ? [`${FILE_TEXTS.heading} :`, ...lines] : [];
}

/** The terminal's keys for files, as they do something now. */
export function fileKeyLines(files: FilesModel | null | undefined, draft: string | null): string[] {
  if (!files || draft !== null) return [];
  const lines: string[] = [];
  if (files.question) lines.push(FILE_TEXTS.keyQuestion);
  if (files.available) lines.push(FILE_TEXTS.keySend);
  if (files.transfers.some(active)) lines.push(FILE_TEXTS.keyCancel);
  if (savedOne(files)) lines.push(FILE_TEXTS.keyOpen);
  return lines;
}

/** Zenity's status dialog lines (the questions come in dialogs of their own). */
export function zenityFileLines(files: FilesModel | null | undefined): string[] {
  if (!files) return [];
  return files.transfers.map((transfer) => transferLine(transfer, files.folderName));
}

/** What the window's « Fichiers » area shows (every text French and final). */
export type WindowFiles = {
  heading: string;
  question: { text: string; detail: string | null; accept: string; decline: string } | null;
  /** « Envoyer un fichier au technicien », enabled while a technician is there. */
  send: { label: string; enabled: boolean };
  /** The field for a path when no chooser can open, else null. */
  path: { label: string; button: string } | null;
  requested: string | null;
  transfers: { id: string; text: string; percent: number | null; cancel: string | null }[];
  /** « Ouvrir le dossier », once a file was saved. */
  open: string | null;
};

/** The window's « Fichiers » area for `files` (null when there is no session). */
export function windowFiles(files: FilesModel | null | undefined): WindowFiles | null {
  if (!files) return null;
  const question = files.question;
  return {
    heading: FILE_TEXTS.heading,
    question: question
      ? {
          text: questionText(question),
          detail: question.kind === "permission" ? FILE_TEXTS.permissionDetail : null,
          accept: question.kind === "permission" ? FILE_TEXTS.allow : FILE_TEXTS.accept,
          decline: FILE_TEXTS.decline,
        }
      : null,
    send: { label: FILE_TEXTS.send, enabled: files.available },
    path: files.pathField && files.available ? { label: FILE_TEXTS.pathLabel, button: FILE_TEXTS.pathButton } : null,
    requested: files.requested ? FILE_TEXTS.requested : null,
    transfers: files.transfers.map((transfer) => ({
      id: transfer.id,
      text: transferLine(transfer, files.folderName),
      percent: active(transfer) ? percent(transfer) : null,
      cancel: active(transfer) ? FILE_TEXTS.cancel : null,
    })),
    open: savedOne(files) ? FILE_TEXTS.openFolder : null,
  };
}
