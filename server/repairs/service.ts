/**
 * Repair tracking's rules (issue 18 §2), over `repair_tickets` and
 * `repair_ticket_events` (migration 0011):
 * - staff open a ticket (from an appointment: model, repair, price and
 *   contact copied from it; or a walk-in, everything typed), move it through
 *   the statuses of `app/repairs/statuses.ts` with a note, enter quotes,
 *   and fill in the deposit's state and accessories (issue 40, `drop-off.ts`);
 * - the customer follows it on `/suivi` with its code and their e-mail or
 *   phone, and accepts or refuses a pending quote there (or tells staff,
 *   who record it: `quote_decided_by` is then their user id, not "client").
 *
 * Every change is ONE transaction: the ticket row, its event row and the
 * outbox mail(s) commit together or not at all (the worker delivers after).
 * The ticket row is locked (`for update`) while a change is decided, so two
 * staff clicks or a click and a customer's answer never both apply.
 *
 * The public lookups count failures per IP address (default 10 per 15 min,
 * `TRACKING_RATE_LIMIT`): once spent, even a right pair is refused until the
 * window ends, so guessing codes is useless. A wrong code, a wrong contact
 * or both get the same French sentence. Nothing personal is logged: no code,
 * e-mail or phone, only ticket ids and a pseudonymized IP.
 *
 * Methods never throw: a database failure is logged and becomes
 * `{ ok: false, reason: "failed" }`.
 */
import { asc, desc, eq, inArray, notInArray } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import { REPAIR_MESSAGES, type RepairTicketSummary, type StaffRepairTicket } from "#app/repairs/protocol.ts";
import {
  parseDropOffEdit,
  parseQuoteAnswer,
  parseQuoteDecision,
  parseQuoteEntry,
  parseStatusChange,
} from "#app/repairs/schemas.ts";
import { canEnterQuote, FINAL_STATUSES, transitionRefusal, type QuoteDecision } from "#app/repairs/statuses.ts";
import type { RepairTrackingServices, TrackingResult } from "#app/repairs/tracking-context.ts";
import type { FieldErrors } from "#app/requests/schemas.ts";
import type { AppDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { isUniqueViolation, newTrackingCode, ticketWhere } from "./codes.ts";
import { writeDropOff } from "./drop-off.ts";
import { appointmentTicketRefusal, newTicketValues } from "./intake.ts";
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import { catalogue as seedCatalogue } from "#app/catalogue/index.ts";
import type { RepairMailSettings } from "./mail.ts";
import { createStepWriter, type Transaction } from "./steps.ts";
import { publicView, staffView, summaryOf, type EventRow, type TicketRow } from "./views.ts";
import { trackPublic } from "./tracking.ts";
import { ticketBonus } from "./bonus.ts";
import { createAccountRepairs, type AccountRepairs } from "./account.ts";

/** A staff refusal: 400 `invalid` (with `fieldErrors`), 404 `not-found`, 409 `conflict`, 500 `failed`. */
export type RepairRefusal = {
  ok: false;
  reason: "invalid" | "not-found" | "conflict" | "failed";
  message: string;
  fieldErrors?: FieldErrors;
};
export type TicketResult = { ok: true; ticket: StaffRepairTicket } | RepairRefusal;

/** The rules of issue 18 §2; every method resolves, never rejects (see the module comment). */
export type RepairService = RepairTrackingServices & {
  /** Opens a ticket ("Reçu", mailed) from an untrusted body; `authorId` is the staff member's user id. */
  open(input: unknown, authorId: string): Promise<TicketResult>;
  /** Moves ticket `id` to `input.status` with `input.note` (≤ 1 000 characters), mailing the customer. */
  changeStatus(id: string, input: unknown, authorId: string): Promise<TicketResult>;
  /** Enters (or replaces) the quote: description, whole euros; the ticket becomes "Devis à valider". */
  enterQuote(id: string, input: unknown, authorId: string): Promise<TicketResult>;
  /**
   * Records the customer's answer to the pending quote given to staff (by phone, at the counter):
   * `input.decision` "accepted" (→ "En réparation") or "refused"; `quote_decided_by` is `authorId`.
   */
  recordDecision(id: string, input: unknown, authorId: string): Promise<TicketResult>;
  /** Staff list, newest change first (at most 200): open tickets only unless `all`. */
  list(options?: { all?: boolean }): Promise<{ ok: true; tickets: RepairTicketSummary[] } | RepairRefusal>;
  /** One ticket with its steps, for staff: `key` is its id or (issue 40) its tracking code, "UZFD-GY5Y". */
  get(key: string): Promise<TicketResult>;
  /**
   * Issue 40: replaces « État au dépôt » and « Accessoires laissés » of open ticket `id` (`DropOffEdit`;
   * blank clears), in one write, without a step or a mail; 409 once « Rendu » or « Annulé ».
   */
  editDropOff(id: string, input: unknown): Promise<TicketResult>;
  /** The customer's side in their account (`account.ts`). */
  account: AccountRepairs;
};

export type RepairServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  mail: RepairMailSettings;
  /** Failed lookups per IP and window on the tracking page; counted in `store` (default memory). */
  rateLimit?: { points: number; durationSeconds: number; store?: RateLimitStore };
  /** Called after a commit that queued mail, to deliver without waiting for the next poll. */
  onMailQueued?: () => void;
  /**
   * Issue 29: the catalogue as it is now (the catalogue service's `current()`, read at each use): a walk-in's
   * typed model and repair are matched in it, and the staff view's reference price and the bonus line are
   * read from it. Default the JSON seed.
   */
  catalogue?: () => Catalogue;
};

/** Default limit of the tracking page: 10 failed lookups per 15 minutes and address. */
export const TRACKING_RATE_LIMIT = { points: 10, durationSeconds: 900 };

const Uuid = z.uuid();
const notFound: RepairRefusal = { ok: false, reason: "not-found", message: REPAIR_MESSAGES.ticketNotFound };
const conflict = (message: string): RepairRefusal => ({ ok: false, reason: "conflict", message });

/** The rules over `options.db` (issue 18 §2). */
export function createRepairService(options: RepairServiceOptions): RepairService {
  const { db, logger, mail } = options;
  const currentCatalogue = options.catalogue ?? (() => seedCatalogue);
  const rule: NonNullable<RepairServiceOptions["rateLimit"]> = options.rateLimit ?? TRACKING_RATE_LIMIT;
  const limiter = createRateLimiter(rule.store ?? MEMORY_STORE, {
    name: "repair-tracking-ip",
    points: rule.points,
    durationSeconds: rule.durationSeconds,
  });
  const { writeStep, writeDecision } = createStepWriter(mail);
  const failed = (error: unknown, log: string, message: string = REPAIR_MESSAGES.failed): RepairRefusal => {
    logger.error({ err: error }, log);
    return { ok: false, reason: "failed", message };
  };

  /** Account names of `ids` (event authors, staff decisions). */
  async function namesOf(ids: (string | null)[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null && id !== "client"))];
    if (wanted.length === 0) return new Map();
    const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, wanted));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  const eventsOf = (executor: AppDatabase | Transaction, ticketId: string): Promise<EventRow[]> =>
    executor
      .select()
      .from(repairTicketEvents)
      .where(eq(repairTicketEvents.ticketId, ticketId))
      .orderBy(asc(repairTicketEvents.createdAt), asc(repairTicketEvents.id));

  async function staffTicket(row: TicketRow): Promise<StaffRepairTicket> {
    const events = await eventsOf(db, row.id);
    const names = await namesOf([row.quoteDecidedBy, ...events.map((event) => event.authorId)]);
    const catalogue = currentCatalogue();
    return staffView(row, events, names, catalogue, await ticketBonus(db, row, catalogue));
  }

  /**
   * Locks ticket `id`, lets `decide` refuse or write a step, then answers
   * the staff view. `log` names the change in the logs; `mailed` false when it queued no mail.
   */
  async function change(
    id: string,
    log: string,
    decide: (tx: Transaction, row: TicketRow) => Promise<RepairRefusal | TicketRow>,
    { mailed = true }: { mailed?: boolean } = {},
  ): Promise<TicketResult> {
    if (!Uuid.safeParse(id).success) return notFound;
    try {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(repairTickets).where(eq(repairTickets.id, id)).for("update");
        return row ? decide(tx, row) : notFound;
      });
      if ("ok" in outcome) return outcome;
      logger.info({ ticketId: id, status: outcome.status }, log);
      if (mailed) options.onMailQueued?.();
      return { ok: true, ticket: await staffTicket(outcome) };
    } catch (error) {
      return failed(error, `réparation : ${log} impossible`);
    }
  }

  const tracking = trackPublic({ db, logger, limiter, eventsOf, catalogue: currentCatalogue });

  return {
    account: createAccountRepairs({ db, logger, tracking, shop: options.mail.shop }),
    async open(input, authorId) {
      try {
        const values = await newTicketValues(db, input, currentCatalogue().brands);
        if ("ok" in values) return values;
        // A code already taken (one chance in ~10¹¹ per ticket) is drawn again.
        for (let attempt = 0; ; attempt++) {
          try {
            const row = await db.transaction(async (tx) => {
              // Checked again under the appointment's lock: another technician may have opened it meanwhile.
              const taken = values.appointmentId ? await appointmentTicketRefusal(tx, values.appointmentId) : null;
              if (taken) return taken;
              const [created] = await tx
                .insert(repairTickets)
                .values({ ...values, trackingCode: newTrackingCode() })
                .returning();
              // The step's time must follow the row's creation: `writeStep` adds its millisecond.
              return writeStep(
                tx,
                { ...created!, updatedAt: new Date(created!.createdAt.getTime() - 1) },
                {
                  status: "received",
                  note: null,
                  authorId,
                },
              );
            });
            if ("ok" in row) return row;
            logger.info({ ticketId: row.id, fromAppointment: row.appointmentId !== null }, "réparation ouverte");
            options.onMailQueued?.();
            return { ok: true, ticket: await staffTicket(row) };
          } catch (error) {
            if (!isUniqueViolation(error) || attempt >= 4) throw error;
          }
        }
      } catch (error) {
        return failed(error, "réparation non ouverte : la base de données a refusé l'écriture");
      }
    },

    async changeStatus(id, input, authorId) {
      const parsed = parseStatusChange(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors };
      const { status, note } = parsed.data;
      return change(id, "statut changé", async (tx, row) => {
        const refusal = transitionRefusal(row.status, status);
        if (refusal) return conflict(refusal);
        return writeStep(tx, row, { status, note: note ?? null, authorId });
      });
    },

    async enterQuote(id, input, authorId) {
      const parsed = parseQuoteEntry(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors };
      const { description, amountEuros, note } = parsed.data;
      return change(id, "devis saisi", async (tx, row) => {
        if (!canEnterQuote(row.status)) return conflict(REPAIR_MESSAGES.quoteNotAllowed);
        return writeStep(tx, row, {
          status: "quote-pending",
          note: note ?? null,
          authorId,
          quote: { description, amountEuros },
          // A new quote waits for a new answer; the price agreed on an earlier one stays until then.
          set: () => ({
            quoteDescription: description,
            quoteAmountEuros: amountEuros,
            quoteDecision: null,
            quoteDecidedAt: null,
            quoteDecidedBy: null,
          }),
        });
      });
    },

    async recordDecision(id, input, authorId) {
      const parsed = parseQuoteDecision(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors };
      return change(
        id,
        "réponse au devis notée",
        async (tx, row) =>
          (await writeDecision(tx, row, parsed.data.decision, authorId)) ?? conflict(REPAIR_MESSAGES.noQuote),
      );
    },

    async editDropOff(id, input) {
      const parsed = parseDropOffEdit(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors };
      return change(id, "dépôt modifié", (tx, row) => writeDropOff(tx, row, parsed.data), { mailed: false });
    },

    async list({ all = false } = {}) {
      try {
        const rows = await db
          .select()
          .from(repairTickets)
          .where(all ? undefined : notInArray(repairTickets.status, [...FINAL_STATUSES]))
          .orderBy(desc(repairTickets.updatedAt), desc(repairTickets.id))
          .limit(200);
        return { ok: true, tickets: rows.map(summaryOf) };
      } catch (error) {
        return failed(error, "réparations illisibles", REPAIR_MESSAGES.listFailed);
      }
    },

    async get(key) {
      const where = ticketWhere(key);
      if (!where) return notFound;
      try {
        const [row] = await db.select().from(repairTickets).where(where);
        return row ? { ok: true, ticket: await staffTicket(row) } : notFound;
      } catch (error) {
        return failed(error, "réparation illisible");
      }
    },

    track: (input, origin) => tracking.lookup(input, origin),

    async decideQuote(input, origin) {
      const parsed = parseQuoteAnswer(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message };
      const found = await tracking.find(parsed.data, origin);
      if (!found.ok) return found;
      const { decision, amountEuros } = parsed.data;
      try {
        const outcome = await db.transaction(async (tx) => {
          const [row] = await tx.select().from(repairTickets).where(eq(repairTickets.id, found.row.id)).for("update");
          // Issue 30: the customer confirmed an amount; a quote replaced since then waits for a new reading.
          if (row && amountEuros !== undefined && row.quoteAmountEuros !== amountEuros) return "changed" as const;
          return row ? writeDecision(tx, row, decision, "client") : null;
        });
        if (outcome === "changed") return { ok: false, reason: "conflict", message: REPAIR_MESSAGES.quoteChanged };
        if (!outcome) return { ok: false, reason: "conflict", message: REPAIR_MESSAGES.noQuote };
        logger.info({ ticketId: outcome.id, decision }, "réparation : réponse du client au devis");
        options.onMailQueued?.();
        const ticket = publicView(
          outcome,
          await eventsOf(db, outcome.id),
          await ticketBonus(db, outcome, currentCatalogue()),
        );
        return { ok: true, ticket, decision } satisfies TrackingResult & { decision: QuoteDecision };
      } catch (error) {
        logger.error({ err: error }, "réparation : réponse au devis non enregistrée");
        return { ok: false, reason: "failed", message: REPAIR_MESSAGES.failed };
      }
    },
  };
}
