/**
 * French lines for `npm run backup` and `npm run restore` (issue 29): sizes
 * and per-table row counts, never content.
 */
import type { BackupTable } from "./format.ts";

/** French names of the tables a shop owner knows; others are shown by their SQL name. */
const TABLE_LABELS: Record<string, string> = {
  users: "comptes",
  accounts: "identifiants des comptes",
  auth_sessions: "sessions de connexion",
  verifications: "vérifications (liens de réinitialisation…)",
  contact_requests: "demandes de contact",
  quote_requests: "demandes de devis",
  outbox_messages: "mails (file d'envoi)",
  appointments: "rendez-vous",
  repair_tickets: "tickets de réparation",
  repair_ticket_events: "étapes des tickets",
  shop_settings: "réglages de l'atelier",
  sessions: "sessions d'assistance",
  session_events: "événements des sessions",
  assistant_messages: "messages de l'assistant",
  assistant_ratings: "avis sur l'assistant",
};

/** `1,4 Mo`, `812 ko`, `96 o` (French units, decimal comma). */
export function formatBytes(bytes: number): string {
  const comma = (value: number) => value.toFixed(1).replace(".", ",");
  if (bytes >= 1_000_000) return `${comma(bytes / 1_000_000)} Mo`;
  if (bytes >= 1_000) return `${comma(bytes / 1_000)} ko`;
  return `${bytes} o`;
}

/** One aligned line per table, `  demandes de contact (contact_requests)   5000`, then the total. */
export function describeCounts(tables: Pick<BackupTable, "name" | "rows">[]): string[] {
  const labels = tables.map((table) =>
    TABLE_LABELS[table.name] ? `${TABLE_LABELS[table.name]} (${table.name})` : table.name,
  );
  const width = Math.max(0, ...labels.map((label) => label.length));
  const total = tables.reduce((sum, table) => sum + table.rows, 0);
  return [
    ...tables.map((table, index) => `  ${labels[index]!.padEnd(width)}  ${table.rows}`),
    `  ${"total".padEnd(width)}  ${total}`,
  ];
}
