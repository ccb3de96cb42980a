/**
 * Issue 27, « La file d'attente »: customers waiting for a technician, in one
 * module shared by the browser, the server and the desktop app. Pure: no
 * server, browser or OS API (the app's terminal, the customer's page and a
 * window all print `queuePlaceText`).
 *
 * - A session waits when it is open (no end time), has no technician, its
 *   code has not expired, and its customer is there: the page's socket of a
 *   site session's account, or the app of an app-started one. Oldest first.
 * - Technicians get the whole list (`QueueSnapshot`): `GET /api/sessions/queue`
 *   and the Socket.IO push `queue:updated` (room `technicians`, every server
 *   process). « Prendre en charge » is `POST /api/sessions/:code/claim`.
 * - Each waiting customer gets their place (`QueuePlace`): the page through
 *   `queue:place` and `GET /api/sessions/:code/place`, the app through
 *   `device:queue` on its `/device` socket; `null` once out of the queue.
 *
 * The estimated wait (`estimateMinutes`) is place × the typical length of a
 * session (median of recent ones) ÷ the technicians on duty, rounded up to
 * 5 minutes: an order of magnitude, said « environ N min ».
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";

/** One waiting customer as technicians see it. Times ISO 8601. */
export type QueueEntry = {
  /** The session's code: « Prendre en charge » joins it (technicians may join any code anyway). */
  code: string;
  /** The name the customer gave (account name, or the one typed in the app, or « Client sans compte »). */
  userName: string;
  /** `site`: /soft-assist (an account); `app`: the desktop app without an account (issue 26). */
  origin: "site" | "app";
  /** The customer's system (« Windows », « macOS »…), null when unknown. */
  system: string | null;
  /** Issue 38 §4, when the app sent the facts: their short line (« Windows 11 · 8 Go · disque plein à 94 % »). */
  computer?: string;
  /** When the session was opened: the wait counts from here. */
  waitingSince: string;
  /** Messages of the assistant conversation handed over (issue 18 §4), 0 when none: read it with `/conversation`. */
  conversationMessages: number;
};

/**
 * The queue at instant `at` (the database's clock, ISO 8601): a dashboard keeps the newest snapshot it got, so a
 * push computed earlier by another server process and delivered later never replaces a newer one.
 */
export type QueueSnapshot = { entries: QueueEntry[]; at: string };

/** A waiting customer's place: 1 is next. `estimatedMinutes`: see `estimateMinutes`. */
export type QueuePlace = { place: number; total: number; estimatedMinutes: number };

/** Whether `value` has the shape of a `QueuePlace` (what the app checks of a `device:queue` before showing it). */
export function isQueuePlace(value: unknown): value is QueuePlace {
  const place = value as QueuePlace | null;
  return (
    typeof place === "object" &&
    place !== null &&
    [place.place, place.total, place.estimatedMinutes].every((n) => Number.isInteger(n) && n >= 0 && n < 100_000)
  );
}

/** `GET /api/sessions/queue`. */
export type QueueResponse = QueueSnapshot;
/** `GET /api/sessions/:code/place` (the session's customer): null when the session does not wait. */
export type QueuePlaceResponse = { place: QueuePlace | null };

/**
 * Server → browser events of the queue, on the tabs' usual Socket.IO connection. Typed here rather than in
 * `protocol.ts`'s `ServerToClientEvents` (that file is at its length limit): the server and the browser both view
 * the connection through this map (`queue-realtime.ts`, `client/waiting-queue.ts`, `client/queue-place.ts`).
 */
export type QueueServerEvents = {
  /** The whole queue, to every technician (room `technicians`), whenever it may have changed. */
  "queue:updated": (snapshot: QueueSnapshot) => void;
  /** To a waiting site customer's tabs: their place, or null once out of the queue. `code`: their session. */
  "queue:place": (update: { code: string; place: QueuePlace | null }) => void;
};

/** French texts of the queue. */
export const QUEUE_MESSAGES = {
  /** 409 to the technician who lost the race for « Prendre en charge ». */
  taken: "Ce client est déjà pris en charge par un autre technicien.",
  /** 410: the session ended, or its code expired, before it was taken. */
  gone: "Ce client n'est plus en attente.",
  claim: "Prendre en charge",
  fromApp: "depuis le logiciel",
  fromSite: "depuis le site",
  unknownSystem: "système inconnu",
} as const;

/** « depuis le logiciel » or « depuis le site ». */
export function queueOriginLabel(origin: QueueEntry["origin"]): string {
  return origin === "app" ? QUEUE_MESSAGES.fromApp : QUEUE_MESSAGES.fromSite;
}

/** Shortest estimate said, minutes, and the step estimates are rounded up to. */
export const ESTIMATE_STEP_MINUTES = 5;
/** Typical session length assumed until enough sessions ended (`MIN_HANDLING_SAMPLES`), minutes. */
export const DEFAULT_HANDLING_MINUTES = 15;
/** Ended sessions needed before their median replaces `DEFAULT_HANDLING_MINUTES`. */
export const MIN_HANDLING_SAMPLES = 5;

/**
 * Minutes a customer at `place` (1 = next) should expect to wait: `place` × `handlingMinutes` (the typical length
 * of a session) ÷ `technicians` on duty (at least 1), rounded up to `ESTIMATE_STEP_MINUTES` (never less than it).
 */
export function estimateMinutes(place: number, handlingMinutes: number, technicians: number): number {
  const raw = (Math.max(1, place) * Math.max(1, handlingMinutes)) / Math.max(1, technicians);
  return Math.max(ESTIMATE_STEP_MINUTES, Math.ceil(raw / ESTIMATE_STEP_MINUTES) * ESTIMATE_STEP_MINUTES);
}

/** The shop's weekly opening slots, as its identity gives them (« Boutique »; ISO weekdays, "HH:MM" in Paris). */
export type WeeklySlot = { days: readonly number[]; opens: string; closes: string };

const parisClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: SHOP_TIME_ZONE,
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Whether instant `now` falls inside one of `slots` (the shop's wall clock, Europe/Paris, across DST changes). */
export function isShopOpen(now: Date, slots: readonly WeeklySlot[]): boolean {
  const parts = Object.fromEntries(parisClock.formatToParts(now).map((part) => [part.type, part.value]));
  const weekday = WEEKDAYS.indexOf(parts.weekday ?? "") + 1;
  const time = `${parts.hour}:${parts.minute}`;
  return slots.some((slot) => slot.days.includes(weekday) && slot.opens <= time && time < slot.closes);
}

/** What the customer reads of `place` at `now`; `hours` are the shop's hours in French, `slots` when it is open. */
export type QueueTextContext = { now: Date; slots: readonly WeeklySlot[]; hours: readonly string[] };

/**
 * The waiting customer's lines (French), the same on the page, in the app's terminal and in its window:
 * their place, then the estimated wait while the shop is open, or its hours while it is closed.
 */
export function queuePlaceText(place: QueuePlace, { now, slots, hours }: QueueTextContext): string[] {
  const ahead = place.place - 1;
  const lines = [
    ahead === 0
      ? "Vous êtes en tête de la file d'attente."
      : `Votre place dans la file d'attente : ${place.place} (${ahead === 1 ? "1 personne" : `${ahead} personnes`} avant vous).`,
  ];
  if (isShopOpen(now, slots)) lines.push(`Attente estimée : environ ${place.estimatedMinutes} min.`);
  else
    lines.push(
      "L'atelier est fermé en ce moment : un technicien vous répondra dès l'ouverture.",
      `Horaires : ${hours.join(" ; ")}.`,
    );
  return lines;
}

/** Whole minutes from `since` (ISO 8601) to `now` (ms), never negative. */
export function waitedMinutes(since: string, now: number): number {
  const start = Date.parse(since);
  return Number.isNaN(start) ? 0 : Math.max(0, Math.floor((now - start) / 60_000));
}

const minutesFormat = new Intl.NumberFormat("fr-FR", { style: "unit", unit: "minute", unitDisplay: "long" });

/** « moins d'une minute », « 1 minute », « 12 minutes » (fr-FR). */
export function formatWaited(minutes: number): string {
  return minutes < 1 ? "moins d'une minute" : minutesFormat.format(minutes);
}
