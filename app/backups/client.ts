/**
 * Issue 40: the browser's calls of `protocol.ts`. Each resolves with the data or the server's French
 * message; never throws (offline: status 0 and `BACKUP_MESSAGES.failed`).
 */
import {
  BACKUP_COPIED_PATH,
  BACKUP_DOWNLOAD_PATH,
  BACKUP_MESSAGES,
  BACKUP_STATUS_PATH,
  type BackupStatusView,
} from "./protocol.ts";

export type BackupResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

const refusal = async (response: Response): Promise<BackupResult<never>> => {
  const payload = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const message = typeof payload?.message === "string" ? payload.message : BACKUP_MESSAGES.failed;
  return { ok: false, status: response.status, message };
};

async function send(path: string, init: RequestInit): Promise<Response | null> {
  try {
    return await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    return null;
  }
}

async function statusCall(path: string, method: "GET" | "POST"): Promise<BackupResult<BackupStatusView>> {
  const response = await send(path, { method, headers: { Accept: "application/json" } });
  if (!response) return { ok: false, status: 0, message: BACKUP_MESSAGES.failed };
  if (!response.ok) return refusal(response);
  return { ok: true, data: (await response.json()) as BackupStatusView };
}

/** The last backup's status. */
export const getBackupStatus = () => statusCall(BACKUP_STATUS_PATH, "GET");
/** Notes that the manager copied a backup off the server another way; the status after it. */
export const declareBackupCopied = () => statusCall(BACKUP_COPIED_PATH, "POST");

/**
 * Downloads the newest backup after the manager's password: the file is handed to the browser's own
 * download (a link to the received bytes), named as on the server. Resolves with that name.
 */
export async function downloadLatestBackup(password: string): Promise<BackupResult<{ name: string }>> {
  const response = await send(BACKUP_DOWNLOAD_PATH, {
    method: "POST",
    headers: { Accept: "application/gzip, application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ password }),
  });
  if (!response) return { ok: false, status: 0, message: BACKUP_MESSAGES.failed };
  if (!response.ok) return refusal(response);
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "sauvegarde.gz";
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    return { ok: false, status: 0, message: BACKUP_MESSAGES.failed };
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's download started; the bytes are freed a minute later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { ok: true, data: { name } };
}
