/**
 * Issue 18 §1: the booking service. The customer's side (`BookingServices`,
 * app/booking/context.ts: availability, book, manage by signed link) for the
 * pages, and the staff's side (agenda, confirm, move, cancel, settings) for
 * `server/booking/api.ts`. Writes are `./store.ts`'s transactions; after
 * each commit the outbox is woken and `onChanged` tells the live agendas.
 *
 * Order of checks on a booking: honeypot → validation → the form key's
 * booking if it has one (issue 28: a retried POST answers the first result,
 * uncounted) → per-IP limit (the forms' limits, counted apart) → the
 * transaction (window, slot, key again, caps per customer, places: `store.ts`).
 * Nothing here logs a token, a form key, an e-mail, a phone or a name, and
 * refusals a visitor can repeat are summarised (`server/refusal-log.ts`), not logged
 * one by one.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { appointments } from "#database/schema-booking.ts";
import { BOOKING_MESSAGES, BookingInput, FORM_KEY_FIELD, HONEYPOT_FIELD, SlotStart } from "#app/booking/schemas.ts";
import type {
  AgendaAppointment,
  AppointmentView,
  BookingResult,
  BookingServices,
  DayView,
  SlotView,
} from "#app/booking/context.ts";
import { bookedRepair } from "#app/booking/booked-repair.server.ts";
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import { catalogue as seed } from "#app/catalogue/index.ts";

const seedCatalogue = () => seed;
import { BookingSettings } from "#app/booking/settings.ts";
import { bookableDates, dateOfDay, dayNumber, shopDate, shopInstant, slotsBetween } from "#app/booking/slots.ts";
import { validate, type FieldErrors } from "#app/requests/schemas.ts";
import type { RequestOrigin } from "#app/utils/server-context.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { pseudonymizeIp } from "#server/logger.ts";
import { readAgenda } from "./agenda-read.ts";
import { createManageLinks, type ManageLink } from "./links.ts";
import { invitation, type AppointmentRow, type BookingMailSettings } from "./mails.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import { appointmentView, isRecord, isUniqueViolation, managedView, STAFF_MESSAGES } from "./views.ts";
import {
  byFormKey,
  moveAppointment,
  placeAppointment,
  readShopSettings,
  replayOf,
  setAppointmentStatus,
  takenBetween,
  writeShopSettings,
  type NewAppointment,
  type PlaceOutcome,
  type ShopSettingsValue,
  type StoreContext,
} from "./store.ts";

export { appointmentView, managedView };

/** How many free slots a visitor who lost a race is offered. */
export const NEXT_SLOTS_OFFERED = 6;
/** The longest range the availability and the agenda read at once, days. */
export const MAX_RANGE_DAYS = 62;

/**
 * How long the bonus setting read for the brand pages is kept, ms: a change made by this process shows at
 * once, one made by another server process (PostgreSQL) within this delay.
 */
export const BONUS_CACHE_MS = 5_000;

/** A change the live agendas should show (`agenda:changed` to technicians). */
export type AgendaChange = { id: string; date: string };

export type BookingServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  mail: BookingMailSettings;
  /** The server's secret, from which the manage links' key is derived. */
  secret: string;
  rateLimit: { points: number; durationSeconds: number; store?: RateLimitStore };
  /** After a commit that wrote mails. */
  onStored?: () => void;
  /** The clock (tests). */
  now?: () => Date;
  /**
   * Issue 29: the catalogue the booked price is read from at booking time (the catalogue service's
   * `current`); default the JSON seed, for tests that need no edited prices.
   */
  catalogue?: () => Catalogue;
};

/** Staff outcome: the appointment, or why not (French message for the API; 400 a slot outside the window). */
export type StaffOutcome =
  | { ok: true; appointment: AppointmentView }
  | { ok: false; status: 400 | 404 | 409 | 503; message: string; next?: SlotView[] };

export type BookingService = BookingServices & {
  /** Calls `listener` after each committed change (the live agendas); returns the unsubscribe function. */
  subscribe(listener: (change: AgendaChange) => void): () => void;
  /**
   * Appointments starting in [from, to) (shop dates, inclusive `from`, exclusive `to`), cancelled ones included,
   * each with the code of the repair opened from it (issue 40).
   */
  agenda(from: string, to: string): Promise<AgendaAppointment[]>;
  confirm(id: string): Promise<StaffOutcome>;
  cancel(id: string): Promise<StaffOutcome>;
  move(id: string, start: Date): Promise<StaffOutcome>;
  settings(): Promise<ShopSettingsValue>;
  /** Validates and stores the settings; `fieldErrors` in French when invalid. */
  saveSettings(
    input: unknown,
    userId: string,
  ): Promise<{ ok: true; value: ShopSettingsValue } | { ok: false; fieldErrors: FieldErrors }>;
};

const OUTSIDE_WINDOW: BookingResult = { status: "invalid", fieldErrors: { slot: BOOKING_MESSAGES.outsideWindow } };

export function createBookingService(options: BookingServiceOptions): BookingService {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date());
  const links = createManageLinks(options.secret);
  const listeners = new Set<(change: AgendaChange) => void>();
  let bonusCache: { shown: boolean; until: number } | undefined;
  const changed = (row: AppointmentRow) => {
    for (const listener of listeners) listener({ id: row.id, date: shopDate(row.startsAt) });
  };
  const context: StoreContext = { db, mail: options.mail, links };
  const refused = createRefusalLog(logger, "rendez-vous refusés (nombre par motif sur la dernière minute)");
  /** The row a manage link names, if the link is of its current version (issue 28 §9). */
  async function linked(link: ManageLink | null): Promise<AppointmentRow | null> {
    if (!link) return null;
    const [row] = await db.select().from(appointments).where(eq(appointments.id, link.id));
    return row && row.linkVersion === link.version ? row : null;
  }
  const limiter = createRateLimiter(options.rateLimit.store ?? MEMORY_STORE, {
    name: "booking-ip",
    points: options.rateLimit.points,
    durationSeconds: options.rateLimit.durationSeconds,
  });

  async function days(from: string, count: number): Promise<{ days: DayView[]; first: string; last: string }> {
    const at = now();
    const { booking } = await readShopSettings(db, options.mail.shop?.current());
    const bookable = bookableDates(booking, at);
    const start = Math.max(dayNumber(from), dayNumber(bookable.first));
    const end = Math.min(start + Math.min(count, MAX_RANGE_DAYS) - 1, dayNumber(bookable.last));
    const taken =
      end < start ? [] : await takenBetween(db, shopInstant(dateOfDay(start), 0), shopInstant(dateOfDay(end + 1), 0));
    const slots = slotsBetween(booking, { from: dateOfDay(start), to: dateOfDay(end) }, taken, at);
    const result: DayView[] = [];
    for (let day = start; day <= end; day++) result.push({ date: dateOfDay(day), slots: [] });
    for (const slot of slots) {
      result[dayNumber(slot.date) - start]?.slots.push({
        start: slot.start.toISOString(),
        time: slot.time,
        free: slot.free,
      });
    }
    return { days: result, first: bookable.first, last: bookable.last };
  }

  /** The next free slots from `after` on (for the visitor who lost a race). */
  async function nextFree(after: Date): Promise<SlotView[]> {
    const found = await days(shopDate(after), 14);
    return found.days
      .flatMap((day) => day.slots)
      .filter((slot) => slot.free > 0 && Date.parse(slot.start) >= after.getTime())
      .slice(0, NEXT_SLOTS_OFFERED);
  }

  async function limited(origin: RequestOrigin): Promise<BookingResult | null> {
    const outcome = await consume(limiter, origin.ip);
    if (outcome.allowed) return null;
    refused("limite-ip", { ipHash: pseudonymizeIp(origin.ip) });
    return { status: "rate-limited", retryAfterSeconds: outcome.retryAfterSeconds };
  }

  /** A store outcome as the pages' result; a lost race answers the next free slots. */
  async function customerResult(outcome: PlaceOutcome | null, wanted: Date): Promise<BookingResult> {
    if (!outcome) return { status: "link-invalid" };
    switch (outcome.status) {
      case "placed":
        options.onStored?.();
        changed(outcome.row);
        return { status: "booked", token: outcome.token, appointment: appointmentView(outcome.row) };
      case "replayed":
        return { status: "booked", token: outcome.token, appointment: appointmentView(outcome.row) };
      case "not-modifiable":
        return { status: "not-modifiable", reason: outcome.reason };
      case "key-used":
        refused("cle-deja-utilisee");
        return { status: "key-used" };
      case "outside-window":
        refused("hors-fenetre");
        return OUTSIDE_WINDOW;
      case "contact-limit":
        refused(outcome.limit === "upcoming" ? "plafond-client" : "plafond-messages");
        return { status: "contact-limit", limit: outcome.limit, max: outcome.max };
      case "slot-taken":
      case "slot-unavailable":
        return { status: outcome.status, next: await nextFree(wanted) };
    }
  }

  /**
   * Stores a booking; a unique violation on the form key (the same POST twice at once, for two slots)
   * answers the booking the other one stored.
   */
  async function place(start: Date, details: NewAppointment): Promise<PlaceOutcome> {
    try {
      return await placeAppointment(context, start, details, now());
    } catch (error) {
      const earlier = details.formKey && isUniqueViolation(error) ? await byFormKey(db, details.formKey) : undefined;
      if (!earlier) throw error;
      return replayOf(links, earlier, details);
    }
  }

  /** Runs a write; a database failure is logged (without personal data) and answered `failed`. */
  async function guarded<T>(what: string, run: () => Promise<T>, failed: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      logger.error({ err: error }, `rendez-vous : ${what} impossible, la base de données a refusé l'opération`);
      return failed;
    }
  }

  async function staffResult(outcome: PlaceOutcome | null, wanted?: Date): Promise<StaffOutcome> {
    if (!outcome) return { ok: false, status: 404, message: "Ce rendez-vous n'existe pas." };
    if (outcome.status === "outside-window") return { ok: false, status: 400, message: BOOKING_MESSAGES.outsideWindow };
    if (outcome.status === "placed" || outcome.status === "replayed") {
      options.onStored?.();
      changed(outcome.row);
      return { ok: true, appointment: appointmentView(outcome.row) };
    }
    if (outcome.status === "not-modifiable") return { ok: false, status: 409, message: STAFF_MESSAGES[outcome.reason] };
    const message = outcome.status === "slot-taken" ? STAFF_MESSAGES.slotTaken : STAFF_MESSAGES.slotUnavailable;
    return { ok: false, status: 409, message, ...(wanted ? { next: await nextFree(wanted) } : {}) };
  }

  const failedStaff: StaffOutcome = { ok: false, status: 503, message: STAFF_MESSAGES.unavailable };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async availability(from, count) {
      return guarded("lecture des créneaux", () => days(from, count), null);
    },

    async book(input, origin) {
      if (isRecord(input) && typeof input[HONEYPOT_FIELD] === "string" && input[HONEYPOT_FIELD].trim() !== "") {
        await consume(limiter, origin.ip).catch(() => undefined);
        refused("champ-piege", { ipHash: pseudonymizeIp(origin.ip) });
        return { status: "spam" };
      }
      const checked = validate(BookingInput, input);
      if (!checked.ok) return { status: "invalid", fieldErrors: checked.fieldErrors };
      const request = checked.data;
      const booked = bookedRepair(request.model, request.repair, (options.catalogue ?? seedCatalogue)());
      const details: NewAppointment = {
        modelSlug: booked.modelSlug,
        modelName: booked.modelName,
        repairId: booked.repairId,
        repairLabel: booked.repairLabel,
        priceEuros: booked.euros,
        priceEstimate: booked.estimate,
        customerName: request.name,
        email: request.email,
        phone: request.phone,
        note: request.note,
        formKey: request[FORM_KEY_FIELD],
      };
      return guarded(
        "réservation",
        async () => {
          // A POST sent again answers what the first one stored, before the limit: a retry is not a new booking.
          const earlier = details.formKey ? await byFormKey(db, details.formKey) : undefined;
          if (earlier) return customerResult(replayOf(links, earlier, details), request.slot);
          const limit = await limited(origin);
          if (limit) return limit;
          const outcome = await place(request.slot, details);
          if (outcome.status === "placed") logger.info({ id: outcome.row.id }, "rendez-vous enregistré");
          return customerResult(outcome, request.slot);
        },
        { status: "failed" },
      );
    },

    async byToken(token) {
      const row = await linked(links.verify(token, now()));
      if (!row) return { status: "link-invalid" };
      return row.status === "cancelled" ? { status: "cancelled" } : { status: "found", appointment: managedView(row) };
    },

    async invitationByToken(token) {
      const row = await linked(links.verify(token, now()));
      return row ? invitation(row, options.mail, row.status === "cancelled" ? null : token) : null;
    },

    async cancelByToken(token, origin) {
      return guarded(
        "annulation",
        async () => {
          const limit = await limited(origin);
          if (limit) return limit;
          const link = links.verify(token, now());
          if (!link) return { status: "link-invalid" };
          const outcome = await setAppointmentStatus(context, link.id, "cancelled", "customer", now(), link.version);
          return customerResult(outcome, now());
        },
        { status: "failed" },
      );
    },

    async moveByToken(token, slot, origin) {
      const checked = SlotStart.safeParse(slot);
      if (!checked.success) return { status: "invalid", fieldErrors: { slot: "Choisissez un créneau." } };
      return guarded(
        "déplacement",
        async () => {
          const limit = await limited(origin);
          if (limit) return limit;
          const link = links.verify(token, now());
          if (!link) return { status: "link-invalid" };
          const outcome = await moveAppointment(context, link.id, checked.data, "customer", now(), link.version);
          return customerResult(outcome, checked.data);
        },
        { status: "failed" },
      );
    },

    async bonusShown() {
      // Asked before every brand page is served: read at most once per BONUS_CACHE_MS, not per request.
      if (bonusCache && bonusCache.until > Date.now()) return bonusCache.shown;
      const shown = await guarded(
        "lecture des réglages",
        async () => (await readShopSettings(db)).bonusReparation,
        null,
      );
      if (shown === null) return false;
      bonusCache = { shown, until: Date.now() + BONUS_CACHE_MS };
      return shown;
    },

    agenda: (from, to) => readAgenda(db, from, to),

    confirm: (id) =>
      guarded(
        "confirmation",
        async () => staffResult(await setAppointmentStatus(context, id, "confirmed", "shop", now())),
        failedStaff,
      ),
    cancel: (id) =>
      guarded(
        "annulation",
        async () => staffResult(await setAppointmentStatus(context, id, "cancelled", "shop", now())),
        failedStaff,
      ),
    move: (id, start) =>
      guarded(
        "déplacement",
        async () => staffResult(await moveAppointment(context, id, start, "shop", now()), start),
        failedStaff,
      ),

    settings: () => readShopSettings(db, options.mail.shop?.current()),

    async saveSettings(input, userId) {
      const record = isRecord(input) ? input : {};
      const checked = validate(BookingSettings, record.booking);
      if (!checked.ok) return checked;
      if (typeof record.bonusReparation !== "boolean") {
        return {
          ok: false,
          fieldErrors: { bonusReparation: "Indiquez si le bonus réparation est affiché (oui ou non)." },
        };
      }
      const value = { booking: checked.data, bonusReparation: record.bonusReparation };
      await writeShopSettings(db, value, userId);
      bonusCache = { shown: value.bonusReparation, until: Date.now() + BONUS_CACHE_MS };
      logger.info("réglages de l'agenda enregistrés");
      return { ok: true, value };
    },
  };
}
