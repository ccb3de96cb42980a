/**
 * Issue 18 §2: a stored ticket and its steps as each audience sees it. The
 * public view (tracking page) leaves out the contact details, the condition
 * notes and who did what; the staff view has everything, with names, and
 * the catalogue's current entry for the ticket's repair (issue 29: the
 * catalogue service's `current()`, so a price edited in « Tarifs » shows at once).
 * Both show the same price (issue 40, `agreedPrice`): an accepted quote's amount replaces the announced one.
 */
import type {
  PublicRepairTicket,
  RepairEventView,
  RepairQuoteView,
  RepairTicketSummary,
  StaffRepairTicket,
} from "#app/repairs/protocol.ts";
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import { formatPrice } from "#app/catalogue/format.ts";
import { formatTrackingCode, warrantyEnd } from "#app/repairs/statuses.ts";
import type { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";

export type TicketRow = typeof repairTickets.$inferSelect;
export type EventRow = typeof repairTicketEvents.$inferSelect;

function quoteOf(row: TicketRow): RepairQuoteView | null {
  if (row.quoteAmountEuros === null || row.quoteDescription === null) return null;
  return {
    description: row.quoteDescription,
    amountEuros: row.quoteAmountEuros,
    decision: row.quoteDecision,
    decidedAt: row.quoteDecidedAt?.toISOString() ?? null,
  };
}

/**
 * Issue 40: the ticket's price, whole euros: the amount of the last quote accepted (by the customer on
 * `/suivi` or by phone), which replaces the price announced at the opening, and stays while a later quote
 * waits for its answer (migration 0025); that announced price otherwise.
 */
export function agreedPrice(row: Pick<TicketRow, "priceEuros" | "agreedPriceEuros">): number | null {
  return row.agreedPriceEuros ?? row.priceEuros;
}

/** A step as both views show it: its quote (the one it sent or answered) when it has one. */
function stepOf(event: EventRow): RepairEventView {
  const quote =
    event.quoteDescription !== null && event.quoteAmountEuros !== null
      ? { description: event.quoteDescription, amountEuros: event.quoteAmountEuros }
      : null;
  return { status: event.status, note: event.note, at: event.createdAt.toISOString(), quote };
}

/** The warranty's last day once "Rendu" (spec §9), else null. */
export function warrantyOf(row: Pick<TicketRow, "status" | "returnedAt">): string | null {
  return row.status === "returned" && row.returnedAt ? warrantyEnd(row.returnedAt) : null;
}

/** What the tracking page shows; `events` oldest first; `afterBonus` from `ticketBonus` (issue 18 §3). */
export function publicView(row: TicketRow, events: EventRow[], afterBonus: string | null = null): PublicRepairTicket {
  const price = agreedPrice(row);
  return {
    code: formatTrackingCode(row.trackingCode),
    modelName: row.modelName,
    repairLabel: row.repairLabel,
    priceEuros: price,
    priceFromQuote: row.agreedPriceEuros !== null,
    estimateEuros: row.priceEuros !== null && row.priceEuros !== price ? row.priceEuros : null,
    afterBonus,
    status: row.status,
    events: events.map(stepOf),
    quote: quoteOf(row),
    warrantyUntil: warrantyOf(row),
  };
}

/**
 * The model, repair and price `catalogue` has for the ticket's `model_slug`/`repair_id`, or null when
 * they are no longer in it (removed, or a model staff hid: `current()` leaves hidden models out).
 */
function catalogueOf(
  row: Pick<TicketRow, "modelSlug" | "repairId">,
  catalogue: Catalogue,
): StaffRepairTicket["catalogue"] {
  if (!row.modelSlug || !row.repairId) return null;
  const entry = catalogue.getModel(row.modelSlug);
  const repair = entry?.model.repairs.find((candidate) => candidate.id === row.repairId);
  return entry && repair ? { model: entry.model.name, repair: repair.label, price: formatPrice(repair.euros) } : null;
}

/**
 * The staff's view; `names` maps user ids to account names (authors, staff decisions); `catalogue` is the
 * one the ticket's reference model, repair and price are read in (issue 29: the catalogue service's current
 * one); `afterBonus` from `ticketBonus` (issue 18 §3).
 */
export function staffView(
  row: TicketRow,
  events: EventRow[],
  names: Map<string, string>,
  catalogue: Catalogue,
  afterBonus: string | null = null,
): StaffRepairTicket {
  const decidedBy = row.quoteDecidedBy;
  return {
    ...publicView(row, events, afterBonus),
    id: row.id,
    appointmentId: row.appointmentId,
    conditionNotes: row.conditionNotes,
    accessories: row.accessories,
    customerName: row.customerName,
    email: row.email,
    phone: row.phone,
    quoteDecidedBy: decidedBy === null || decidedBy === "client" ? decidedBy : (names.get(decidedBy) ?? decidedBy),
    catalogue: catalogueOf(row, catalogue),
    events: events.map((event) => ({
      ...stepOf(event),
      authorName: event.authorId ? (names.get(event.authorId) ?? null) : null,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A line of the staff list. */
export function summaryOf(row: TicketRow): RepairTicketSummary {
  return {
    id: row.id,
    code: formatTrackingCode(row.trackingCode),
    modelName: row.modelName,
    repairLabel: row.repairLabel,
    status: row.status,
    customerName: row.customerName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
