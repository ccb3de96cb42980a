/**
 * Issue 40 « Sauvegardes »: the manager copies the newest backup off the server from the dashboard.
 *
 * `POST /api/backups/latest` `{ password }` streams the newest `sauvegarde-….gz` of the backup folder as an
 * attachment, never read into memory. The file holds every customer's data and the accounts' password
 * hashes, so a sign-in alone is not enough: the manager's password is checked again (better-auth's
 * `verifyPassword`), wrong ones counted per account (`DOWNLOAD_PASSWORD_LIMIT`, a right one gives its point
 * back). A download sent whole is recorded in `status.json` (`recordBackupCopy`) for the « Mise en ligne »
 * checklist; the log names the account and the file, nothing else.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { fromNodeHeaders } from "better-auth/node";
import type { Request, Response } from "express";
import { BACKUP_MESSAGES, DOWNLOAD_PASSWORD_LIMIT, DownloadInput } from "#app/backups/protocol.ts";
import type { Caller } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { listBackups } from "./backup.ts";
import { recordBackupCopy } from "./status.ts";

export type BackupDownloadOptions = {
  auth: Auth;
  /** The backup folder (`backupFolder(env)`). */
  dir: string;
  rateLimits?: RateLimitStore;
};

/** The handler of `POST /api/backups/latest`, behind `backups:read` (the caller is the signed-in manager). */
export function createBackupDownload({ auth, dir, rateLimits = MEMORY_STORE }: BackupDownloadOptions) {
  const limiter = createRateLimiter(rateLimits, { name: "backup-download-password", ...DOWNLOAD_PASSWORD_LIMIT });

  /** Whether `password` is the caller's own (better-auth compares it with the stored hash). */
  async function passwordMatches(req: Request, password: string): Promise<boolean> {
    try {
      await auth.api.verifyPassword({ body: { password }, headers: fromNodeHeaders(req.headers) });
      return true;
    } catch {
      return false;
    }
  }

  return async function download(req: Request, res: Response, caller: Caller): Promise<void> {
    const input = DownloadInput.safeParse(req.body);
    if (!input.success) return void res.status(400).json({ message: BACKUP_MESSAGES.badBody });
    // Counted before checking, so that tries sent in parallel count too.
    const attempt = await consume(limiter, caller.userId);
    if (!attempt.allowed) {
      res.setHeader("Retry-After", String(attempt.retryAfterSeconds));
      return void res.status(429).json({ message: BACKUP_MESSAGES.tooMany });
    }
    if (!(await passwordMatches(req, input.data.password))) {
      req.log?.warn({ userId: caller.userId }, "sauvegarde non téléchargée : mot de passe incorrect");
      return void res.status(400).json({ message: BACKUP_MESSAGES.wrongPassword });
    }
    await limiter.reward(caller.userId, 1);
    const newest = (await listBackups(dir)).at(-1);
    const size = newest
      ? await stat(newest.file).then(
          (info) => info.size,
          () => null,
        )
      : null;
    if (!newest || size === null) return void res.status(404).json({ message: BACKUP_MESSAGES.noBackup });

    res.status(200);
    res.setHeader("Content-Type", "application/gzip");
    res.setHeader("Content-Length", String(size));
    res.setHeader("Content-Disposition", `attachment; filename="${newest.name}"`);
    res.setHeader("Cache-Control", "no-store");
    req.log?.info({ userId: caller.userId, file: newest.name }, "sauvegarde téléchargée par le gérant");
    try {
      await pipeline(createReadStream(newest.file), res);
    } catch (error) {
      // The browser left, or the file went away (pruned) while it was read: nothing was copied.
      req.log?.warn({ err: error, file: newest.name }, "téléchargement de la sauvegarde interrompu");
      return;
    }
    await recordBackupCopy(dir, "download", new Date()).catch((error: unknown) =>
      req.log?.warn({ err: error }, "copie de la sauvegarde non notée dans status.json"),
    );
  };
}
