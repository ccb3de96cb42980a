/**
 * The last backup, at the top of the manager's « Équipe » view (issue 29: « a failure is logged and shown to
 * the manager »): when it was made, its size and folder, or in red what failed, that none succeeded for
 * over 36 h, or that none was made yet, with what to do. Reads `GET /api/backups/status` once when shown.
 */
import { useEffect, useState } from "react";
import { Card } from "#app/components/ui/card.tsx";
import { formatDateTime } from "#app/remote-support/client/format.ts";

/** `GET /api/backups/status` (server/backup/status.ts `BackupStatus`): dates ISO 8601, size in bytes. */
export type BackupStatusView = {
  lastSuccessAt: string | null;
  lastFile: string | null;
  lastSizeBytes: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
  state: "ok" | "failed" | "late" | "never";
  nightly: boolean;
  dir: string;
};

const sizeFormat = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });

/** "892 Ko", "1,4 Mo": the backup's size as the file manager shows it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} Ko`;
  return `${sizeFormat.format(bytes / (1024 * 1024))} Mo`;
}

/** The French sentences for `status`: what the manager reads, and whether it is a warning. */
export function backupStatusText(status: BackupStatusView): { alert: boolean; lines: string[] } {
  const last =
    status.lastSuccessAt && status.lastSizeBytes !== null
      ? `Dernière sauvegarde réussie : ${formatDateTime(status.lastSuccessAt)} (${formatBytes(status.lastSizeBytes)}), dans ${status.dir}.`
      : null;
  const manual = "Pour en faire une tout de suite : npm run backup sur la machine du serveur.";
  switch (status.state) {
    case "failed":
      return {
        alert: true,
        lines: [
          `La dernière sauvegarde a échoué (${formatDateTime(status.lastErrorAt)}) : ${status.lastError ?? "erreur inconnue"}`,
          ...(last ? [last] : []),
          manual,
        ],
      };
    case "late":
      return {
        alert: true,
        lines: ["Aucune sauvegarde réussie depuis plus de 36 heures.", ...(last ? [last] : []), manual],
      };
    case "never":
      return {
        alert: true,
        lines: [
          status.nightly
            ? "Aucune sauvegarde n'a encore été faite : la première est faite cette nuit."
            : "Aucune sauvegarde n'a encore été faite, et ce serveur n'en fait pas la nuit (base PostgreSQL externe : sauvegardez-la avec ses propres outils).",
          manual,
        ],
      };
    default:
      return { alert: false, lines: [last ?? "Sauvegarde à jour."] };
  }
}

export function BackupStatusPanel() {
  const [status, setStatus] = useState<BackupStatusView | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void fetch("/api/backups/status", { headers: { Accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as BackupStatusView;
        if (!cancelled) setStatus(body);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, []);
  const text = status ? backupStatusText(status) : null;
  return (
    <Card className="flex flex-col gap-2">
      <h2 className="text-2xl font-bold text-white">Sauvegardes</h2>
      {failed ? (
        <p role="alert" className="text-red-300">
          L'état des sauvegardes n'a pas pu être lu. Réessayez dans quelques instants.
        </p>
      ) : !text ? (
        <p className="text-slate-300">Chargement…</p>
      ) : (
        <div role={text.alert ? "alert" : undefined} className={text.alert ? "text-red-300" : "text-slate-200"}>
          {text.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
    </Card>
  );
}
