/**
 * Issue 18 §1: what the booking pages receive from the server through the
 * router context (`server/booking/service.ts` implements it), and the shapes
 * they and the staff agenda read. Times are ISO 8601 instants; prices whole
 * euros.
 */
import type { AppointmentStatus } from "#database/schema-booking.ts";
import type { FieldErrors } from "#app/requests/schemas.ts";
import { sharedContext, type RequestOrigin } from "#app/utils/server-context.ts";

/** One offered slot: `start` ISO instant, `time` "HH:MM" in the shop's time zone, `free` places left. */
export type SlotView = { start: string; time: string; free: number };
/** The slots of one shop date "YYYY-MM-DD" (empty when closed). */
export type DayView = { date: string; slots: SlotView[] };

/** An appointment as the manage page and the agenda show it. */
export type AppointmentView = {
  id: string;
  status: AppointmentStatus;
  startsAt: string;
  endsAt: string;
  modelSlug: string | null;
  modelName: string | null;
  repairId: string | null;
  repairLabel: string;
  priceEuros: number | null;
  priceEstimate: boolean;
  customerName: string;
  email: string;
  phone: string;
  note: string | null;
  cancelledBy: "customer" | "shop" | null;
  createdAt: string;
};

/**
 * An appointment in the staff agenda (`GET /api/agenda`). Issue 40: `repairCode` is the tracking code
 * (« R7K3-QXMA ») of the repair ticket opened from it, null while none is: the card links to that ticket
 * instead of offering to open a second one.
 */
export type AgendaAppointment = AppointmentView & { repairCode: string | null };

/**
 * Issue 28 §10: an appointment as its manage page shows it: when, what, its status. No name, e-mail,
 * phone or note: the page (and its data in the HTML) never carries them.
 */
export type ManagedAppointment = Pick<
  AppointmentView,
  "status" | "startsAt" | "endsAt" | "modelName" | "repairLabel" | "priceEuros" | "priceEstimate"
>;

/**
 * What booking (or moving to) a slot gave. `next`: the next free slots when the chosen one was taken
 * meanwhile. Issue 28: `contact-limit` (§5: `max` upcoming appointments for this e-mail or phone, or
 * the day's booking mails to this address), `key-used` (the form's key made another person's booking).
 */
export type BookingResult =
  | { status: "booked"; token: string; appointment: AppointmentView }
  | { status: "invalid"; fieldErrors: FieldErrors }
  | { status: "contact-limit"; limit: "upcoming" | "mails"; max: number }
  | { status: "key-used" }
  | { status: "slot-taken"; next: SlotView[] }
  | { status: "slot-unavailable"; next: SlotView[] }
  | { status: "spam" }
  | { status: "rate-limited"; retryAfterSeconds: number }
  | { status: "link-invalid" }
  | { status: "not-modifiable"; reason: "cancelled" | "past" }
  | { status: "failed" };

/** The booking pages' server side. Never throws: a storage failure is `{ status: "failed" }` or `null`. */
export type BookingServices = {
  /** The days `from` … `from + days − 1` ("YYYY-MM-DD") with their slots, as bookable now. */
  availability(from: string, days: number): Promise<{ days: DayView[]; first: string; last: string } | null>;
  /** Books a slot from the form's fields (untrusted). */
  book(input: unknown, origin: RequestOrigin): Promise<BookingResult>;
  /**
   * The appointment a manage link names, without personal data; `cancelled` alone once cancelled
   * (issue 28 §10); `link-invalid` for a wrong, expired or superseded link (issue 28 §9: signed before a move).
   */
  byToken(
    token: string,
  ): Promise<
    { status: "found"; appointment: ManagedAppointment } | { status: "cancelled" } | { status: "link-invalid" }
  >;
  /** The appointment's iCalendar text (`rendez-vous.ics`) for a valid link, else null. */
  invitationByToken(token: string): Promise<string | null>;
  /** Cancels by the customer's link. */
  cancelByToken(token: string, origin: RequestOrigin): Promise<BookingResult>;
  /** Moves by the customer's link to `slot` (an ISO start, untrusted); answers the new token. */
  moveByToken(token: string, slot: unknown, origin: RequestOrigin): Promise<BookingResult>;
  /** Whether "X € après bonus réparation" is shown (issue 18 §3 shop setting). */
  bonusShown(): Promise<boolean>;
};

export const bookingServicesContext = sharedContext<BookingServices>("booking-services");
