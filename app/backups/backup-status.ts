/**
 * The last backup in French (issue 29: « a failure is logged and shown to the manager »; issue 40: its own
 * « Sauvegardes » view): when it was made and its size, or in red what failed, that none succeeded for over
 * 36 h, or that none was made yet, with what to do; and when it was last copied off the server. Pure.
 */
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { copyIsRecent, type BackupStatusView } from "./protocol.ts";

export type { BackupStatusView };

const sizeFormat = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });

/** "892 Ko", "2,4 Mo": the backup's size as the file manager shows it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} Ko`;
  return `${sizeFormat.format(bytes / (1024 * 1024))} Mo`;
}

/** The French sentences for `status`: what the manager reads, and whether it is a warning. */
export function backupStatusText(status: BackupStatusView): { alert: boolean; lines: string[] } {
  const last =
    status.lastSuccessAt && status.lastSizeBytes !== null
      ? `Dernière sauvegarde réussie : ${formatDateTime(status.lastSuccessAt)} (${formatBytes(status.lastSizeBytes)}).`
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

/** When the server makes its backups, in French. */
export function scheduleText(status: Pick<BackupStatusView, "nightly" | "hour">): string {
  return status.nightly
    ? `Une sauvegarde est faite chaque nuit à ${status.hour} h (heure de la boutique).`
    : "Ce serveur ne fait pas de sauvegarde la nuit (base PostgreSQL externe) : seules celles faites avec npm run backup apparaissent ici.";
}

/** Issue 40: the last copy off the server, in French, and whether it is too old (or missing) to count. */
export function copyText(status: BackupStatusView, now: Date): { recent: boolean; line: string } {
  if (!status.lastCopyAt)
    return {
      recent: false,
      line: "Aucune copie hors de ce serveur n'est connue : si le disque lâche, les sauvegardes disparaissent avec lui.",
    };
  const how = status.lastCopyKind === "download" ? "téléchargée ici" : "copiée par vos soins";
  const when = `Dernière copie hors du serveur : ${formatDateTime(status.lastCopyAt)} (${how}).`;
  return copyIsRecent(status, now)
    ? { recent: true, line: when }
    : { recent: false, line: `${when} Elle date de plus de 7 jours : faites-en une nouvelle.` };
}
