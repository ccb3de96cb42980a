/**
 * Issue 18 §1: the booking's writes, each ONE transaction holding the
 * appointment and its outbox mails (nothing half-stored, nothing lost if
 * SMTP is down), and its reads.
 *
 * Race for the last place: a booking or a move reads the settings under
 * their shared lock, then takes a transaction-scoped advisory lock on the
 * target slot (`pg_advisory_xact_lock(class, start in minutes)`), checks the
 * slot and counts the places taken before inserting. Two visitors racing for the last place are thus
 * serialised: the second counts the first's row and gets `slot-taken`. A
 * settings change takes the settings' lock exclusively, which every slot
 * check holds shared: no booking is checked against a grid being replaced.
 * It holds on PostgreSQL across server processes, and on PGlite (one
 * connection) trivially.
 *
 * Issue 28: a slot outside the booking window is refused before its lock key
 * is computed (§4: year 9999 overflowed it); a booking also passes the caps
 * per customer (`caps.ts`, §5); a booking whose form key is already stored
 * answers that booking (`replayed`) instead of storing another; a move raises
 * `link_version`, and the customer's changes name the version their link
 * was signed with (§9).
 */
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages, type OutboxMail } from "#database/schema.ts";
import { appointments, shopSettings, type AppointmentStatus } from "#database/schema-booking.ts";
import { BookingSettings, defaultBookingSettings } from "#app/booking/settings.ts";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import {
  dateOfDay,
  dayNumber,
  shopDate,
  shopInstant,
  slotAt,
  withinBookingWindow,
  type TakenRange,
} from "#app/booking/slots.ts";
import { newMessageId } from "#server/requests.ts";
import { composeCustomerMail, composeShopMail, type AppointmentRow, type BookingMailSettings } from "./mails.ts";
import type { ManageLinks } from "./links.ts";
import { contactLimit, emailKey, phoneKey, type ContactLimit } from "./caps.ts";

/** First key of the advisory locks taken by bookings (the second is the slot's start, `checkSlot`). */
const BOOKING_LOCK_CLASS = 18_001;
/** Reminders leave at this wall-clock time the day before (minutes after midnight: 17:00). */
const REMINDER_MINUTES = 17 * 60;

type Executor = Pick<AppDatabase, "select" | "insert" | "update" | "delete" | "execute">;

export type ShopSettingsValue = { booking: BookingSettings; bonusReparation: boolean };

/**
 * The stored settings, or the defaults; a stored value that no longer validates also falls back to the defaults.
 * `shop`: the identity whose opening hours are the default hours (issue 29: the current one).
 */
export async function readShopSettings(
  db: Executor,
  shop: Pick<ShopIdentity, "openingHours"> = defaultShop,
): Promise<ShopSettingsValue> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1));
  if (!row) return { booking: defaultBookingSettings(shop), bonusReparation: false };
  const booking = BookingSettings.safeParse(row.booking);
  return {
    booking: booking.success ? booking.data : defaultBookingSettings(shop),
    bonusReparation: row.bonusReparation,
  };
}

/**
 * The settings' lock, second key of `BOOKING_LOCK_CLASS` (slot keys are positive minutes): bookings and
 * moves hold it shared while they check their slot, a settings change exclusively, so no booking is
 * checked against a grid a concurrent change is replacing, and bookings never wait for each other on it.
 */
const SETTINGS_LOCK_KEY = -1;

/** Writes the settings (already validated) as the single row, once no booking is being checked. */
export async function writeShopSettings(
  db: Pick<AppDatabase, "transaction">,
  value: ShopSettingsValue,
  userId: string,
): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOKING_LOCK_CLASS}, ${SETTINGS_LOCK_KEY})`);
    await tx
      .insert(shopSettings)
      .values({
        id: 1,
        booking: value.booking,
        bonusReparation: value.bonusReparation,
        updatedBy: userId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: shopSettings.id,
        set: { booking: value.booking, bonusReparation: value.bonusReparation, updatedBy: userId, updatedAt: now },
      });
  });
}

/** Active (not cancelled) appointments overlapping [from, to), optionally without one. */
export async function takenBetween(db: Executor, from: Date, to: Date, except?: string): Promise<TakenRange[]> {
  return db
    .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        ne(appointments.status, "cancelled"),
        lt(appointments.startsAt, to),
        gt(appointments.endsAt, from),
        except ? ne(appointments.id, except) : undefined,
      ),
    );
}

export type StoreContext = { db: AppDatabase; mail: BookingMailSettings; links: ManageLinks };

/** What the booking needs besides the slot: a snapshot of the repair and the customer. */
export type NewAppointment = Omit<
  typeof appointments.$inferInsert,
  "id" | "startsAt" | "endsAt" | "status" | "createdAt" | "updatedAt" | "revision" | "linkVersion"
>;

/**
 * What a write gave: `placed` (stored, mails queued), `replayed` (issue 28: the booking its form key
 * already made, nothing written), `key-used` (that key made a booking for someone else), or a refusal.
 */
export type PlaceOutcome =
  | { status: "placed" | "replayed"; row: AppointmentRow; token: string }
  | { status: "slot-taken" | "slot-unavailable" | "outside-window" | "key-used" }
  | ({ status: "contact-limit" } & ContactLimit)
  | { status: "not-modifiable"; reason: "cancelled" | "past" };

/** The manage token of `row`: valid until the appointment starts, and until its next move (issue 28 §9). */
export function tokenOf(links: ManageLinks, row: AppointmentRow): string {
  return links.sign(row.id, row.startsAt, row.linkVersion);
}

/**
 * The answer to a booking whose form key made `row` already: that booking if it is the same customer's
 * (a retried POST), `key-used` if not (the key came with other details).
 */
export function replayOf(links: ManageLinks, row: AppointmentRow, details: NewAppointment): PlaceOutcome {
  const same = emailKey(row.email) === emailKey(details.email) && phoneKey(row.phone) === phoneKey(details.phone);
  return same ? { status: "replayed", row, token: tokenOf(links, row) } : { status: "key-used" };
}

/** The booking made with form key `key`, if any. */
export async function byFormKey(db: Executor, key: string): Promise<AppointmentRow | undefined> {
  const [row] = await db.select().from(appointments).where(eq(appointments.formKey, key));
  return row;
}

/**
 * Checks the slot at `start`: in the booking window (issue 28 §4, before any arithmetic on `start`),
 * then, under the slot's lock, a slot of the settings (`ignoreLeadTime`: the shop's moves) with a free
 * place. `beforeCount` runs under the slot's lock, before the places are counted (the booking's key and caps).
 *
 * Locks: the settings' shared, then the slot's (key: its start in whole minutes since 1970, which fits
 * PostgreSQL's int4 until the year 6053; the window keeps every key far below). Slots of one grid never
 * overlap, so bookings of different slots need not wait for each other.
 */
async function checkSlot(
  tx: Executor,
  start: Date,
  now: Date,
  options: {
    /** Issue 29: the identity whose opening hours are the default hours (the current one). */
    shop: Pick<ShopIdentity, "openingHours">;
    ignoreLeadTime: boolean;
    except?: string;
    beforeCount?: (settings: BookingSettings) => Promise<PlaceOutcome | null>;
  },
): Promise<{ ok: true; end: Date } | { ok: false; outcome: PlaceOutcome }> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${BOOKING_LOCK_CLASS}, ${SETTINGS_LOCK_KEY})`);
  const { booking } = await readShopSettings(tx, options.shop);
  const settings = options.ignoreLeadTime ? { ...booking, leadHours: 0 } : booking;
  if (!withinBookingWindow(settings, start, now)) return { ok: false, outcome: { status: "outside-window" } };
  await tx.execute(sql`select pg_advisory_xact_lock(${BOOKING_LOCK_CLASS}, ${Math.floor(start.getTime() / 60_000)})`);
  const slot = slotAt(settings, start, now);
  if (!slot) return { ok: false, outcome: { status: "slot-unavailable" } };
  const refused = await options.beforeCount?.(settings);
  if (refused) return { ok: false, outcome: refused };
  const taken = await takenBetween(tx, slot.start, slot.end, options.except);
  if (taken.length >= settings.capacity) return { ok: false, outcome: { status: "slot-taken" } };
  return { ok: true, end: slot.end };
}

/** The outbox rows of a change: the customer's mail, the shop's on a booking, and the (re)scheduled reminder. */
async function writeMails(
  tx: Executor,
  context: StoreContext,
  row: AppointmentRow,
  kind: "booked" | "confirmed" | "moved" | "cancelled",
  now: Date,
): Promise<void> {
  const token = row.status === "cancelled" ? null : tokenOf(context.links, row);
  const domain = new URL(context.mail.publicUrl).hostname;
  const rows: { kind: string; mail: OutboxMail; at?: Date }[] = [
    { kind: `appointment-${kind}`, mail: composeCustomerMail(kind, row, context.mail, token) },
  ];
  if (kind === "booked") rows.push({ kind: "appointment-shop", mail: composeShopMail(row, context.mail) });
  // The reminder says what is true the day before: rewritten at every change, dropped on cancellation.
  await tx
    .delete(outboxMessages)
    .where(
      and(
        eq(outboxMessages.requestId, row.id),
        eq(outboxMessages.requestKind, "appointment-reminder"),
        eq(outboxMessages.status, "pending"),
      ),
    );
  const remindAt = shopInstant(dateOfDay(dayNumber(shopDate(row.startsAt)) - 1), REMINDER_MINUTES);
  if (row.status !== "cancelled" && remindAt.getTime() > now.getTime()) {
    rows.push({
      kind: "appointment-reminder",
      mail: composeCustomerMail("reminder", row, context.mail, token),
      at: remindAt,
    });
  }
  await tx.insert(outboxMessages).values(
    rows.map((item) => ({
      messageId: newMessageId(domain),
      requestKind: item.kind,
      requestId: row.id,
      mail: item.mail,
      ...(item.at ? { nextAttemptAt: item.at } : {}),
    })),
  );
}

/**
 * Books `start` for `details`, in one transaction (see the module's note on the race): window, slot,
 * then under the slot's lock the form key (`details.formKey`: its booking is answered, `replayed`), the
 * caps per customer (`contact-limit`) and the places.
 */
export async function placeAppointment(
  context: StoreContext,
  start: Date,
  details: NewAppointment,
  now: Date,
): Promise<PlaceOutcome> {
  return context.db.transaction(async (tx) => {
    const slot = await checkSlot(tx, start, now, {
      ignoreLeadTime: false,
      shop: context.mail.shop?.current() ?? defaultShop,
      async beforeCount(settings) {
        // A retry sent while the first was running waited on this slot's lock: the first has committed.
        const earlier = details.formKey ? await byFormKey(tx, details.formKey) : undefined;
        if (earlier) return replayOf(context.links, earlier, details);
        const limit = await contactLimit(tx, settings, details, now);
        return limit ? { status: "contact-limit", ...limit } : null;
      },
    });
    if (!slot.ok) return slot.outcome;
    const [row] = await tx
      .insert(appointments)
      .values({ ...details, startsAt: start, endsAt: slot.end })
      .returning();
    await writeMails(tx, context, row!, "booked", now);
    return { status: "placed", row: row!, token: tokenOf(context.links, row!) };
  });
}

/**
 * The row, locked for this transaction, if it can still change (not cancelled, not started). Null: no
 * such id, or (`linkVersion` given: a customer's link) a link signed before the last move.
 */
async function lockModifiable(
  tx: Executor,
  id: string,
  now: Date,
  linkVersion?: number,
): Promise<{ ok: true; row: AppointmentRow } | { ok: false; outcome: PlaceOutcome } | null> {
  const [row] = await tx.select().from(appointments).where(eq(appointments.id, id)).for("update");
  if (!row || (linkVersion !== undefined && row.linkVersion !== linkVersion)) return null;
  if (row.status === "cancelled") return { ok: false, outcome: { status: "not-modifiable", reason: "cancelled" } };
  if (row.startsAt.getTime() <= now.getTime())
    return { ok: false, outcome: { status: "not-modifiable", reason: "past" } };
  return { ok: true, row };
}

/**
 * Moves appointment `id` to `start` (by the customer: lead time applies; by the shop: it does not),
 * raising its link version: the links mailed before stop working, the move's mail carries the new one.
 * `linkVersion`: the version of the customer's link (refused if another). Null: no such id, or that link.
 */
export async function moveAppointment(
  context: StoreContext,
  id: string,
  start: Date,
  by: "customer" | "shop",
  now: Date,
  linkVersion?: number,
): Promise<PlaceOutcome | null> {
  return context.db.transaction(async (tx) => {
    const current = await lockModifiable(tx, id, now, linkVersion);
    if (!current || !current.ok) return current ? current.outcome : null;
    const slot = await checkSlot(tx, start, now, {
      ignoreLeadTime: by === "shop",
      except: id,
      shop: context.mail.shop?.current() ?? defaultShop,
    });
    if (!slot.ok) return slot.outcome;
    const [row] = await tx
      .update(appointments)
      .set({
        startsAt: start,
        endsAt: slot.end,
        updatedAt: now,
        revision: sql`${appointments.revision} + 1`,
        linkVersion: sql`${appointments.linkVersion} + 1`,
      })
      .where(eq(appointments.id, id))
      .returning();
    await writeMails(tx, context, row!, "moved", now);
    return { status: "placed", row: row!, token: tokenOf(context.links, row!) };
  });
}

/**
 * Confirms (shop) or cancels (customer or shop) appointment `id`. `linkVersion`: the version of the
 * customer's link (refused if another). Null: no such id, or that link.
 */
export async function setAppointmentStatus(
  context: StoreContext,
  id: string,
  status: Exclude<AppointmentStatus, "requested">,
  by: "customer" | "shop",
  now: Date,
  linkVersion?: number,
): Promise<PlaceOutcome | null> {
  return context.db.transaction(async (tx) => {
    const current = await lockModifiable(tx, id, now, linkVersion);
    if (!current || !current.ok) return current ? current.outcome : null;
    if (status === "confirmed" && current.row.status === "confirmed") {
      return { status: "placed", row: current.row, token: tokenOf(context.links, current.row) };
    }
    const [row] = await tx
      .update(appointments)
      .set({
        status,
        updatedAt: now,
        revision: sql`${appointments.revision} + 1`,
        ...(status === "confirmed" ? { confirmedAt: now } : { cancelledAt: now, cancelledBy: by }),
      })
      .where(eq(appointments.id, id))
      .returning();
    await writeMails(tx, context, row!, status, now);
    return { status: "placed", row: row!, token: tokenOf(context.links, row!) };
  });
}
