/**
 * Writes one step of a repair ticket (issue 18 §2) inside the caller's transaction: the ticket's new
 * values, its event row and the outbox mails, together or not at all. The quote's answer is one of these
 * steps; it keeps the amount of an accepted quote as the ticket's agreed price, and both the quote's step and
 * its answer's step keep that quote, so a quote replaced later stays in the history (migration 0025).
 */
import { eq } from "drizzle-orm";
import type { QuoteDecision, RepairStatus } from "#app/repairs/statuses.ts";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, type OutboxMail } from "#database/schema.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { newMessageId } from "#server/requests.ts";
import { composeDecisionMail, composeStepMail, type RepairMailSettings } from "./mail.ts";
import { warrantyOf, type TicketRow } from "./views.ts";

export type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/** One step as the service decides it. */
export type StepInput = {
  status: RepairStatus;
  /** The staff's text sent to the customer (≤ 1 000 characters), or the service's own sentence. */
  note: string | null;
  /** The staff member's user id; null when the customer acted. */
  authorId: string | null;
  /** The quote this step sends or answers (description, whole euros), kept in the history. */
  quote?: { description: string; amountEuros: number };
  /** More values to write on the ticket, given the step's time. */
  set?: (now: Date) => Partial<TicketRow>;
};

/** `writeStep` and `writeDecision` over the shop's mail settings. */
export function createStepWriter(mail: RepairMailSettings) {
  /**
   * Writes `step` on `row` (locked by the caller in `tx`) and answers the updated row. Event times strictly
   * increase per ticket (one ms past the last change at least), so the timeline keeps its order whatever the
   * clock. `extraMails` adds mails composed from the updated row. @throws when the database refuses a write.
   */
  async function writeStep(
    tx: Transaction,
    row: TicketRow,
    step: StepInput,
    extraMails: (updated: TicketRow) => OutboxMail[] = () => [],
  ): Promise<TicketRow> {
    const now = new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1));
    const [updated] = await tx
      .update(repairTickets)
      .set({
        ...step.set?.(now),
        status: step.status,
        updatedAt: now,
        ...(step.status === "returned" ? { returnedAt: now } : {}),
      })
      .where(eq(repairTickets.id, row.id))
      .returning();
    await tx.insert(repairTicketEvents).values({
      ticketId: row.id,
      status: step.status,
      note: step.note,
      authorId: step.authorId,
      quoteDescription: step.quote?.description ?? null,
      quoteAmountEuros: step.quote?.amountEuros ?? null,
      createdAt: now,
    });
    const customerMail = composeStepMail(
      updated!,
      { status: step.status, note: step.note, warrantyUntil: warrantyOf(updated!) },
      mail,
    );
    await tx.insert(outboxMessages).values(
      [customerMail, ...extraMails(updated!)].map((queued) => ({
        messageId: newMessageId(mail.messageIdDomain),
        requestKind: "repair",
        requestId: row.id,
        mail: queued,
      })),
    );
    return updated!;
  }

  /**
   * Writes the answer to `row`'s pending quote, or null when none waits (already answered, replaced,
   * moved on): `by` "client" from the tracking page (the shop is mailed too), else the staff member's id.
   * Accepted: « En réparation », and the quote's amount becomes the ticket's agreed price.
   */
  async function writeDecision(
    tx: Transaction,
    row: TicketRow,
    decision: QuoteDecision,
    by: string,
  ): Promise<TicketRow | null> {
    if (row.status !== "quote-pending" || row.quoteDecision !== null) return null;
    if (row.quoteDescription === null || row.quoteAmountEuros === null) return null;
    const who = by === "client" ? "par le client" : "par téléphone, noté par l'atelier";
    const amountEuros = row.quoteAmountEuros;
    return writeStep(
      tx,
      row,
      {
        status: decision === "accepted" ? "repairing" : "quote-pending",
        note: `Devis ${decision === "accepted" ? "accepté" : "refusé"} ${who}.`,
        authorId: by === "client" ? null : by,
        quote: { description: row.quoteDescription, amountEuros },
        set: (now) => ({
          quoteDecision: decision,
          quoteDecidedAt: now,
          quoteDecidedBy: by,
          ...(decision === "accepted" ? { agreedPriceEuros: amountEuros } : {}),
        }),
      },
      (updated) => (by === "client" ? [composeDecisionMail(updated, decision, mail)] : []),
    );
  }

  return { writeStep, writeDecision };
}
