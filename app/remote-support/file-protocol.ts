/**
 * Issue 38 §2, files both ways between the technician's browser and the customer's desktop app, through the
 * server like the picture, in one module shared by the browser, the server and the app (`desktop/`). Pure: zod.
 *
 * One event each way on each link: a browser emits `file` and hears `file`; the app emits `device:file` and hears
 * `device:file`. Each carries a `FileMessage`, a union on `type`:
 *
 * - `offer` (sender): a file `name` (a bare name: the receiver never trusts a path) of `size` bytes. The
 *   technician's browser offers to the session's app (`to-customer`); the app offers to the session's technician
 *   (`to-technician`). The server checks the sender, the session (an app session or a site session with its app
 *   paired, a technician joined, the app connected) and the limits (`FILE_LIMITS`), names the transfer
 *   (`transferId`, returned in the acknowledgement) and forwards the offer with the technician's name (`from`).
 * - `answer` (receiver): accepted or not; `offset` is where to start: 0, or the bytes already received when a
 *   transfer is resumed after a dropped connection. The app asks its customer (« Jean veut vous envoyer
 *   « facture.pdf » (1,2 Mo). Accepter ? ») and, the first time, the « fichiers » permission.
 * - `chunk` (sender): `data` (at most `FILE_LIMITS.chunkBytes`) at byte `offset`, in order, at most
 *   `FILE_LIMITS.window` chunks ahead of the receiver's last `ack`: a slow link never fills anyone's memory.
 *   After a resume, the chunks the sender had already sent past the new offset are refused with
 *   `FILE_MESSAGES.stale` (not a cancel): the sender goes on from the answer's offset.
 * - `ack` (receiver): `received`, the bytes written so far (every chunk, or every few).
 * - `end` (sender): every byte sent; `sha256` (hex) of the whole file. The receiver checks it, then says `done`
 *   (`ok` false with a French `message` when the hash or the write failed: the partial file is removed).
 * - `cancel` (either): the transfer stops; the receiver removes its partial file.
 * - `request` (the technician only): asks the customer to pick a file to send (the app opens its chooser).
 *
 * Every message is acknowledged (`FileAck`): `{ ok: true }` (with `transferId` for an offer) or `{ ok: false,
 * message }` in French. The server keeps no content: it relays each chunk to the other side as it comes, holds at
 * most the window per transfer, and logs one line per transfer (name hashed, size, direction, outcome).
 */
import { z } from "zod";

/** Bounds of a transfer (bytes, chunks, characters). */
export const FILE_LIMITS = {
  /** Bytes of one `chunk` (the Socket.IO message limit is 128 KiB). */
  chunkBytes: 64 * 1024,
  /** Chunks a sender may have unacknowledged. */
  window: 8,
  /** Largest file, bytes (2 GB). */
  maxFileBytes: 2 * 1024 ** 3,
  /** Bytes a session may transfer in all, both ways (10 GB). */
  maxSessionBytes: 10 * 1024 ** 3,
  /** Transfers one session may have under way at once. */
  maxActive: 2,
  /** Longest file name, characters. */
  nameChars: 200,
} as const;

/** Which way a file goes: to the customer's computer, or to the technician's browser. */
export type FileDirection = "to-customer" | "to-technician";

/** What every side says (French, shown as is). */
export const FILE_MESSAGES = {
  tooLarge: "Ce fichier dépasse 2 Go : il ne peut pas être envoyé.",
  sessionFull: "Cette session a déjà transféré 10 Go : aucun autre fichier ne peut être envoyé.",
  tooMany: "Deux transferts sont déjà en cours : attendez qu'un se termine.",
  notAvailable:
    "Les fichiers ne peuvent être échangés qu'avec le logiciel de bureau connecté et un technicien présent.",
  declined: "Le client a refusé le fichier.",
  unknown: "Ce transfert n'existe plus.",
  outOfOrder: "Morceau de fichier inattendu : le transfert est annulé.",
  stale: "Morceau ignoré : le transfert reprend depuis un octet antérieur.",
  hashMismatch: "Le fichier reçu est altéré (empreinte différente) : il a été supprimé.",
  cancelled: "Transfert annulé.",
  failed: "Le transfert a échoué. Réessayez.",
  invalid: "Message de transfert invalide.",
  badName: "Nom de fichier invalide.",
} as const;

const TransferId = z.uuid({ error: FILE_MESSAGES.unknown });
const Bytes = z.number().int().min(0).max(FILE_LIMITS.maxFileBytes, { error: FILE_MESSAGES.tooLarge });

/**
 * A file name as the receiver may use it: its last path component, without control, bidi or reserved characters
 * (Windows' `<>:"/\|?*`), not `.`/`..`, trimmed of dots and spaces at its end (Windows drops them), at most
 * `FILE_LIMITS.nameChars` characters; null when nothing usable remains. Never a path: the receiver joins it to its
 * own folder.
 */
export function safeFileName(name: string): string | null {
  const last = name.split(/[/\\]/).pop() ?? "";
  const cleaned = last
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>:"|?*]/g, "")
    .replace(/[. ]+$/, "")
    .trim()
    .slice(0, FILE_LIMITS.nameChars);
  if (cleaned === "" || cleaned === "." || cleaned === "..") return null;
  // Windows' reserved device names, whatever the extension.
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(cleaned)) return `_${cleaned}`;
  return cleaned;
}

const FileName = z
  .string()
  .max(1000, { error: FILE_MESSAGES.badName })
  .transform((name, context) => {
    const safe = safeFileName(name);
    if (safe === null) {
      context.addIssue({ code: "custom", message: FILE_MESSAGES.badName });
      return z.NEVER;
    }
    return safe;
  });

/** Chunk bytes: binary, at most `FILE_LIMITS.chunkBytes`. */
export const ChunkBytes = z.custom<Uint8Array | ArrayBuffer>(
  (value) =>
    (value instanceof Uint8Array || value instanceof ArrayBuffer) &&
    value.byteLength > 0 &&
    value.byteLength <= FILE_LIMITS.chunkBytes,
  { error: FILE_MESSAGES.invalid },
);

/** One message of a transfer (see the module comment), as either side sends it. */
export const FileMessage = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("offer"), name: FileName, size: Bytes }),
    z.object({ type: z.literal("answer"), transferId: TransferId, accept: z.boolean(), offset: Bytes }),
    z.object({ type: z.literal("chunk"), transferId: TransferId, offset: Bytes, data: ChunkBytes }),
    z.object({ type: z.literal("ack"), transferId: TransferId, received: Bytes }),
    z.object({
      type: z.literal("end"),
      transferId: TransferId,
      sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: FILE_MESSAGES.invalid }),
    }),
    z.object({
      type: z.literal("done"),
      transferId: TransferId,
      ok: z.boolean(),
      message: z.string().max(300).optional(),
    }),
    z.object({ type: z.literal("cancel"), transferId: TransferId }),
    z.object({ type: z.literal("request") }),
  ],
  { error: FILE_MESSAGES.invalid },
);
export type FileMessage = z.infer<typeof FileMessage>;

/** A browser's `file` carries its session's code too (the app's link is its session). */
export const BrowserFileMessage = z.object({ code: z.string().max(32), message: FileMessage });
export type BrowserFileMessage = z.infer<typeof BrowserFileMessage>;

/** What the server forwards: the message, with the transfer's facts on an offer. */
export type FileDelivery =
  | (Extract<FileMessage, { type: "offer" }> & { transferId: string; from: string | null })
  | Exclude<FileMessage, { type: "offer" }>;

/** The acknowledgement of every message; `transferId` on an accepted offer. */
export type FileAck = { ok: true; transferId?: string } | { ok: false; message: string };

/** Browser → server (merged into `ClientToServerEvents`). */
export type FileClientToServerEvents = {
  file: (message: BrowserFileMessage, ack: (result: FileAck) => void) => void;
};
/** Server → browser (merged into `ServerToClientEvents`): `code` names the session. */
export type FileServerToClientEvents = {
  file: (delivery: { code: string; message: FileDelivery }) => void;
};
/** App → server (merged into `DeviceToServerEvents`). */
export type FileDeviceToServerEvents = {
  "device:file": (message: FileMessage, ack: (result: FileAck) => void) => void;
};
/** Server → app (merged into `ServerToDeviceEvents`). */
export type FileServerToDeviceEvents = {
  "device:file": (delivery: FileDelivery) => void;
};

/** « 1,2 Mo », « 850 Ko », « 12 octets »: a size in French (decimal units, as file managers show them). */
export function formatFileSize(bytes: number): string {
  const number = (value: number) => new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1000) return `${bytes} octet${bytes > 1 ? "s" : ""}`;
  if (bytes < 1000 ** 2) return `${number(bytes / 1000)} Ko`;
  if (bytes < 1000 ** 3) return `${number(bytes / 1000 ** 2)} Mo`;
  return `${number(bytes / 1000 ** 3)} Go`;
}
