/**
 * The backups for the manager (`backups:read`; 401/403 in French otherwise; table in
 * `app/backups/protocol.ts`):
 * - issue 29 « a failure is logged and shown to the manager »: `GET /api/backups/status`, the last backup's
 *   status (`getBackupStatus`) with the nightly hour;
 * - issue 40: `POST /api/backups/latest` `{ password }`, the newest backup file (`download.ts`), and
 *   `POST /api/backups/copied`, the manager's word that a backup was copied off the server another way
 *   (rsync, robocopy, a USB drive), kept 7 days by the « Mise en ligne » checklist.
 * Never cached.
 */
import express from "express";
import {
  BACKUP_COPIED_PATH,
  BACKUP_DOWNLOAD_PATH,
  BACKUP_MESSAGES,
  BACKUP_STATUS_PATH,
  type BackupStatusView,
} from "#app/backups/protocol.ts";
import { createGuards } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import type { Env } from "#server/env.ts";
import { isJsonRequest, jsonApiErrors } from "#server/json-api.ts";
import type { RateLimitStore } from "#server/rate-limit.ts";
import { createBackupDownload } from "./download.ts";
import { backupFolder, getBackupStatus, recordBackupCopy } from "./status.ts";

export type BackupRouterEnv = Pick<Env, "DATA_DIR" | "BACKUP_DIR" | "BACKUP_NIGHTLY" | "DATABASE_URL" | "BACKUP_HOUR">;

/** The status as the view reads it: `getBackupStatus` and the nightly hour. */
export async function backupStatusView(env: BackupRouterEnv): Promise<BackupStatusView> {
  return { ...(await getBackupStatus(env)), hour: env.BACKUP_HOUR };
}

export function createBackupRouter({
  auth,
  env,
  rateLimits,
}: {
  auth: Auth;
  env: BackupRouterEnv;
  /** Where wrong download passwords count (`services.rateLimits`); default this process's memory. */
  rateLimits?: RateLimitStore;
}): express.Router {
  const router = express.Router();
  const { requirePermission } = createGuards(auth);
  const dir = backupFolder(env);
  const download = createBackupDownload({ auth, dir, rateLimits });
  const path = (full: string) => full.replace(/^\/api/, "");

  router.get(
    path(BACKUP_STATUS_PATH),
    requirePermission("backups:read", async (_req, res) => {
      res.json(await backupStatusView(env));
    }),
  );
  router.post(
    path(BACKUP_DOWNLOAD_PATH),
    express.json({ limit: 1024 }),
    requirePermission("backups:read", async (req, res, caller) => {
      if (isJsonRequest(req, res)) await download(req, res, caller);
    }),
  );
  router.post(
    path(BACKUP_COPIED_PATH),
    requirePermission("backups:read", async (req, res, caller) => {
      await recordBackupCopy(dir, "declared", new Date());
      req.log?.info({ userId: caller.userId }, "copie de la sauvegarde déclarée par le gérant");
      res.json(await backupStatusView(env));
    }),
  );
  router.use("/backups", jsonApiErrors("backups API request failed", { status: 503, message: BACKUP_MESSAGES.failed }));
  return router;
}
