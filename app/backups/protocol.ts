/**
 * Issue 29 and issue 40: what the browser and the server exchange about backups, shared by
 * `server/backup/api.ts` and the dashboard's « Sauvegardes » view. Pure: no server or browser APIs.
 *
 * | Method, path               | Who            | Body           | Success |
 * |----------------------------|----------------|----------------|---------|
 * | GET  /api/backups/status   | `backups:read` |                | 200 `BackupStatusView` |
 * | POST /api/backups/latest   | `backups:read` | `{ password }` | 200 the newest backup file (`application/gzip`, attachment) |
 * | POST /api/backups/copied   | `backups:read` |                | 200 `BackupStatusView` (the copy noted) |
 *
 * Refusals are `{ message }` in French: 400 bad body or wrong password, 401, 403, 404 no backup yet, 415,
 * 429 too many wrong passwords (with `Retry-After`: `DOWNLOAD_PASSWORD_LIMIT`).
 */
import { z } from "zod";

export const BACKUP_STATUS_PATH = "/api/backups/status";
export const BACKUP_DOWNLOAD_PATH = "/api/backups/latest";
export const BACKUP_COPIED_PATH = "/api/backups/copied";

/** Wrong passwords per manager before the download waits: 5 per 15 minutes (a right one gives its point back). */
export const DOWNLOAD_PASSWORD_LIMIT = { points: 5, durationSeconds: 900 } as const;
/** A copy off the server older than this (days) no longer counts: the docs ask for one a week at least. */
export const COPY_FRESH_DAYS = 7;

/** `GET /api/backups/status` (server/backup/status.ts `BackupStatus`): dates ISO 8601, size in bytes. */
export type BackupStatusView = {
  lastSuccessAt: string | null;
  lastFile: string | null;
  lastSizeBytes: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Issue 40: the last copy off the server (downloaded here, or declared by the manager). */
  lastCopyAt: string | null;
  lastCopyKind: "download" | "declared" | null;
  state: "ok" | "failed" | "late" | "never";
  nightly: boolean;
  /** The nightly backup's hour (0–23, shop time), `BACKUP_HOUR`. */
  hour: number;
  dir: string;
};

export const BACKUP_MESSAGES = {
  badBody: "Saisissez votre mot de passe.",
  wrongPassword: "Mot de passe incorrect : la sauvegarde n'a pas été téléchargée.",
  noBackup:
    "Aucune sauvegarde à télécharger pour l'instant : la première est faite cette nuit, ou tout de suite avec npm run backup sur la machine du serveur.",
  tooMany: "Trop de mots de passe incorrects. Réessayez dans 15 minutes.",
  declared: "C'est noté : la copie de la sauvegarde est enregistrée pour 7 jours.",
  failed: "Les sauvegardes sont momentanément indisponibles. Réessayez dans un instant.",
} as const;

export const DownloadInput = z.strictObject(
  { password: z.string({ error: BACKUP_MESSAGES.badBody }).min(1, { error: BACKUP_MESSAGES.badBody }).max(128) },
  { error: BACKUP_MESSAGES.badBody },
);

/** Whether the last copy off the server is recent enough (`COPY_FRESH_DAYS`) to count. */
export function copyIsRecent(status: Pick<BackupStatusView, "lastCopyAt">, now: Date): boolean {
  if (!status.lastCopyAt) return false;
  return now.getTime() - Date.parse(status.lastCopyAt) <= COPY_FRESH_DAYS * 24 * 3_600_000;
}
