/**
 * Issue 40 « Mise en ligne »: what is still unfilled or unsafe before the shop opens its site, one rule per
 * point, each pure (tested with plain values): the legal notices and the contact details still holding the
 * site's examples (`app/config/placeholders.ts`), mail not leaving the server, backups never (or not
 * lately) copied off this machine, and no AI provider for the assistant. Each item says in French what is
 * left, or what is in place, and where it is set.
 */
import { backupStatusText } from "#app/backups/backup-status.ts";
import { copyIsRecent, COPY_FRESH_DAYS, type BackupStatusView } from "#app/backups/protocol.ts";
import { exampleContactFields, exampleLegalFields } from "#app/config/placeholders.ts";
import type { ShopIdentity } from "#app/config/shop.ts";
import type { GoLiveChecklist, GoLiveItem } from "#app/go-live/protocol.ts";

export type GoLiveFacts = {
  /** The shop's identity now (« Boutique »). */
  shop: ShopIdentity;
  /** Whether mail leaves the server (`MailService.configured`). */
  mailConfigured: boolean;
  /** The backups' status (`backupStatusView`). */
  backup: BackupStatusView;
  /** Whether an AI provider answers the assistant (`aiConfigFromEnv(env) !== null`). */
  aiConfigured: boolean;
  now: Date;
};

const list = (labels: string[]) => labels.map((label) => `« ${label} »`).join(", ");

export function legalItem(shop: ShopIdentity): GoLiveItem {
  const missing = exampleLegalFields(shop);
  return {
    id: "legal",
    done: missing.length === 0,
    title: "Mentions légales",
    detail:
      missing.length === 0
        ? "Raison sociale, immatriculation, TVA, directeur de la publication et hébergeur sont renseignés."
        : `Encore des valeurs d'exemple, visibles sur la page des mentions légales : ${list(missing)}. En attendant, les notices de confidentialité nomment la boutique par son nom (${shop.name}).`,
    missing,
    setting: { view: "shop", variables: [] },
  };
}

export function contactItem(shop: ShopIdentity): GoLiveItem {
  const missing = exampleContactFields(shop);
  return {
    id: "contact",
    done: missing.length === 0,
    title: "Coordonnées de la boutique",
    detail:
      missing.length === 0
        ? "Le téléphone, l'adresse e-mail et l'adresse affichés sont ceux de la boutique."
        : `Les visiteurs voient encore des coordonnées d'exemple : ${list(missing)}.`,
    missing,
    setting: { view: "shop", variables: [] },
  };
}

export function mailItem(configured: boolean): GoLiveItem {
  return {
    id: "mail",
    done: configured,
    title: "Envoi des e-mails",
    detail: configured
      ? "Les e-mails partent du serveur. Vérifiez qu'ils arrivent avec « Envoyer un e-mail de test » dans « Boutique »."
      : "Non configuré : invitations, confirmations de rendez-vous et liens de réinitialisation ne sont écrits que dans des fichiers sur le serveur, personne ne les reçoit. Renseignez SMTP_URL (ou les variables EMAILJS_*) dans la configuration du serveur, puis redémarrez-le.",
    missing: [],
    setting: { view: "shop", variables: ["SMTP_URL", "MAIL_FROM"] },
  };
}

export function backupsItem(backup: BackupStatusView, now: Date): GoLiveItem {
  const recent = copyIsRecent(backup, now);
  const copy = "Téléchargez la dernière sauvegarde dans « Sauvegardes », ou copiez le dossier des sauvegardes ailleurs";
  let detail: string;
  if (backup.state !== "ok") detail = backupStatusText(backup).lines[0] ?? "";
  else if (!backup.lastCopyAt)
    detail = `Les sauvegardes ne sont que sur cette machine : un disque en panne, un vol ou un incendie les emporte avec le site. ${copy} (clé USB, autre ordinateur), au moins une fois par semaine.`;
  else if (!recent)
    detail = `La dernière copie hors de cette machine date de plus de ${COPY_FRESH_DAYS} jours. ${copy}.`;
  else detail = "Une sauvegarde récente est copiée hors de cette machine. Recommencez au moins une fois par semaine.";
  return {
    id: "backups",
    done: backup.state === "ok" && recent,
    title: "Sauvegardes hors de cette machine",
    detail,
    missing: [],
    setting: { view: "backups", variables: ["BACKUP_DIR"] },
  };
}

export function assistantItem(configured: boolean): GoLiveItem {
  return {
    id: "assistant",
    done: configured,
    title: "Assistant virtuel (IA)",
    detail: configured
      ? "Un fournisseur d'IA répond aux questions des clients."
      : "Aucun fournisseur d'IA : l'assistant répond sans IA, seulement à partir des tarifs et des informations de la boutique. Renseignez OPENAI_API_KEY (ou OPENAI_BASE_URL d'un serveur compatible, par exemple Ollama) dans la configuration du serveur, puis redémarrez-le.",
    missing: [],
    setting: { view: null, variables: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "AI_MODEL"] },
  };
}

/** Every point, in the order the manager should take them, and how many are left. */
export function goLiveChecklist(facts: GoLiveFacts): GoLiveChecklist {
  const items = [
    legalItem(facts.shop),
    contactItem(facts.shop),
    mailItem(facts.mailConfigured),
    backupsItem(facts.backup, facts.now),
    assistantItem(facts.aiConfigured),
  ];
  return { items, remaining: items.filter((item) => !item.done).length };
}
