/**
 * Issue 29 « a failure is logged and shown to the manager »: `GET /api/backups/status`, the last backup's
 * status (`getBackupStatus`, shape `BackupStatus`) for callers with `backups:read` (the manager); 401/403
 * in French otherwise. Read-only, no body, never cached.
 */
import express from "express";
import { createGuards } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import type { Env } from "#server/env.ts";
import type { BackupStatusView } from "#app/staff/backup-status.tsx";
import { getBackupStatus } from "./status.ts";

export function createBackupRouter({
  auth,
  env,
}: {
  auth: Auth;
  env: Pick<Env, "DATA_DIR" | "BACKUP_DIR" | "BACKUP_NIGHTLY" | "DATABASE_URL">;
}): express.Router {
  const router = express.Router();
  const { requirePermission } = createGuards(auth);
  router.get(
    "/backups/status",
    requirePermission("backups:read", async (_req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.json((await getBackupStatus(env)) satisfies BackupStatusView);
    }),
  );
  return router;
}
