/**
 * Issue 40: « État au dépôt » and « Accessoires laissés » of a ticket, filled
 * in or corrected by staff after the opening (a ticket opened from an
 * appointment in one click starts without them). Both values are replaced
 * in ONE update of the locked row (a blank one is cleared), so a refusal
 * stores neither. They are the record of what the shop received: once the
 * device is given back (« Rendu ») or the repair cancelled, they no longer
 * change. No step and no mail: the customer's timeline is about the repair.
 */
import { eq } from "drizzle-orm";
import { REPAIR_MESSAGES } from "#app/repairs/protocol.ts";
import type { DropOffEdit } from "#app/repairs/schemas.ts";
import { isOpen, REPAIR_STATUS_LABELS } from "#app/repairs/statuses.ts";
import type { AppDatabase } from "#database/connection.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import type { RepairRefusal } from "./service.ts";
import type { TicketRow } from "./views.ts";

type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/**
 * Writes `edit` on `row` (locked by the caller in `tx`) and answers the updated row, or the 409 of a closed
 * ticket. `updated_at` moves on (the staff list's "Mise à jour"), at least a millisecond past the last change,
 * so the steps written after it keep their order. @throws when the database refuses the write.
 */
export async function writeDropOff(
  tx: Transaction,
  row: TicketRow,
  edit: DropOffEdit,
): Promise<RepairRefusal | TicketRow> {
  if (!isOpen(row.status)) {
    return { ok: false, reason: "conflict", message: REPAIR_MESSAGES.dropOffClosed(REPAIR_STATUS_LABELS[row.status]) };
  }
  const [updated] = await tx
    .update(repairTickets)
    .set({
      conditionNotes: edit.conditionNotes ?? null,
      accessories: edit.accessories ?? null,
      updatedAt: new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1)),
    })
    .where(eq(repairTickets.id, row.id))
    .returning();
  return updated!;
}
