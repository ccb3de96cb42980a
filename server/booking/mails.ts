/**
 * Issue 18 §1: the mails of a booking, composed when the change is stored
 * and written to the outbox in the same transaction (nothing lost if SMTP is
 * down): to the customer on booking (with the `.ics` invitation and the
 * manage link), confirmation, move (new invitation), cancellation (a CANCEL
 * invitation) and the reminder the day before; to the shop on each booking.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { defaultShop, formatAddress, formatEuros, type ShopIdentity, type ShopSource } from "#app/config/shop.ts";
import { formatWhen } from "#app/booking/format.ts";
import { APPOINTMENT_STATUS_LABELS } from "#app/booking/schemas.ts";
import type { OutboxMail } from "#database/schema.ts";
import type { appointments } from "#database/schema-booking.ts";

export type AppointmentRow = typeof appointments.$inferSelect;

export type BookingMailSettings = {
  /** The shop's inbox (`SHOP_EMAIL`). */
  shopEmail: string;
  /** The site's address (`PUBLIC_URL`), for links in mails. */
  publicUrl: string;
  /** Issue 29: the shop's identity, read when a mail is composed (« Boutique »); the defaults when absent. */
  shop?: ShopSource;
};

/** The identity to write in a mail composed now. */
function shopOf(settings: BookingMailSettings): ShopIdentity {
  return settings.shop?.current() ?? defaultShop;
}

/** The customer mails (each also the `requestKind` of its outbox row, prefixed "appointment-"). */
export type CustomerMailKind = "booked" | "confirmed" | "moved" | "cancelled" | "reminder";

/** "Écran – iPhone 13 (à partir de 89 €, estimation)" or "Diagnostic gratuit". */
export function describeRepair(row: AppointmentRow): string {
  const price =
    row.priceEuros === null
      ? ""
      : ` (à partir de ${formatEuros(row.priceEuros)}${row.priceEstimate ? ", prix estimé à confirmer" : ""})`;
  return `${row.repairLabel}${row.modelName ? ` – ${row.modelName}` : ""}${price}`;
}

/** The manage page's address for `token`. */
export function manageUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/rendez-vous/gerer?jeton=${encodeURIComponent(token)}`;
}

/**
 * Issue 30: the event's STATUS (RFC 5545 §3.8.1.11) for the appointment's state, so a calendar shows a
 * booking the shop has not confirmed yet (« À confirmer ») as tentative, never as settled.
 */
const EVENT_STATUS: Record<AppointmentRow["status"], ICalEventStatus> = {
  requested: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
};

/**
 * The appointment as an iCalendar text: PUBLISH (add or update, same UID,
 * SEQUENCE = `revision`) or CANCEL once cancelled; the event's STATUS is
 * TENTATIVE while it awaits the shop's confirmation, CONFIRMED once
 * confirmed, CANCELLED once cancelled. Times in UTC, which every calendar
 * converts to its own zone.
 */
export function invitation(row: AppointmentRow, settings: BookingMailSettings, token: string | null): string {
  const cancelled = row.status === "cancelled";
  const shop = shopOf(settings);
  const calendar = ical({
    prodId: { company: shop.name, product: "Rendez-vous", language: "FR" },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `${row.id}@${new URL(settings.publicUrl).hostname}`,
    sequence: row.revision,
    start: row.startsAt,
    end: row.endsAt,
    stamp: row.updatedAt,
    summary: `${shop.name} : ${row.repairLabel}${row.modelName ? ` – ${row.modelName}` : ""}`,
    description: [
      describeRepair(row),
      `Téléphone de l'atelier : ${shop.phone.display}`,
      token ? `Déplacer ou annuler : ${manageUrl(settings.publicUrl, token)}` : "",
    ]
      .filter(Boolean)
      .join("\n"),
    location: `${shop.name}, ${formatAddress(shop.address)}`,
    status: EVENT_STATUS[row.status],
    organizer: { name: shop.name, email: settings.shopEmail },
  });
  return calendar.toString();
}

const SUBJECTS: Record<CustomerMailKind, string> = {
  booked: "Votre rendez-vous est enregistré",
  confirmed: "Votre rendez-vous est confirmé",
  moved: "Votre rendez-vous est déplacé",
  cancelled: "Votre rendez-vous est annulé",
  reminder: "Rappel : votre rendez-vous de demain",
};

const OPENINGS: Record<CustomerMailKind, (row: AppointmentRow) => string> = {
  booked: () =>
    "Nous avons bien reçu votre demande de rendez-vous. L'atelier la confirmera rapidement ; vous pouvez déjà l'ajouter à votre agenda avec l'invitation jointe.",
  confirmed: () => "L'atelier a confirmé votre rendez-vous.",
  moved: () => "Votre rendez-vous a été déplacé. La nouvelle invitation est jointe.",
  cancelled: (row) =>
    row.cancelledBy === "customer"
      ? "Votre rendez-vous a bien été annulé."
      : "L'atelier a dû annuler votre rendez-vous. Appelez-nous ou reprenez un rendez-vous en ligne.",
  reminder: () => "Nous vous rappelons votre rendez-vous de demain à l'atelier.",
};

/**
 * A mail to the customer about `row`. `token` (null once cancelled) gives the
 * manage link; booked, confirmed and moved mails carry the invitation,
 * cancelled ones a CANCEL invitation.
 */
export function composeCustomerMail(
  kind: CustomerMailKind,
  row: AppointmentRow,
  settings: BookingMailSettings,
  token: string | null,
): OutboxMail {
  const shop = shopOf(settings);
  const lines = [
    `Bonjour ${row.customerName},`,
    "",
    OPENINGS[kind](row),
    "",
    `Date : ${formatWhen(row.startsAt)}`,
    `Réparation : ${describeRepair(row)}`,
    `Statut : ${APPOINTMENT_STATUS_LABELS[row.status]}`,
    `Adresse : ${shop.name}, ${formatAddress(shop.address)}`,
    "",
    ...(token && row.status !== "cancelled"
      ? ["Pour déplacer ou annuler ce rendez-vous :", manageUrl(settings.publicUrl, token), ""]
      : []),
    `Une question ? Appelez-nous au ${shop.phone.display} (${shop.phone.e164}) ou répondez à ce message.`,
    "",
    shop.name,
    "",
  ];
  const text = lines.join("\n");
  const withCalendar = kind !== "reminder";
  return {
    to: row.email,
    replyTo: { name: shop.name, address: settings.shopEmail },
    subject: `${SUBJECTS[kind]} – ${shop.name}`,
    text,
    template: null,
    templateParams: { to_email: row.email, from_name: shop.name, from_email: settings.shopEmail, message: text },
    ...(withCalendar
      ? {
          calendar: {
            method: row.status === "cancelled" ? ("CANCEL" as const) : ("PUBLISH" as const),
            content: invitation(row, settings, token),
          },
        }
      : {}),
  };
}

/** The shop's notice of a new booking, replying to the customer. */
export function composeShopMail(row: AppointmentRow, settings: BookingMailSettings): OutboxMail {
  const text = [
    `Nouveau rendez-vous demandé en ligne pour le ${formatWhen(row.startsAt)}.`,
    "",
    `Nom : ${row.customerName}`,
    `E-mail : ${row.email}`,
    `Téléphone : ${row.phone}`,
    `Réparation : ${describeRepair(row)}`,
    ...(row.note ? ["", "Note du client :", row.note] : []),
    "",
    `À confirmer dans le tableau de bord : ${settings.publicUrl.replace(/\/+$/, "")}/soft-assist`,
    "",
  ].join("\n");
  return {
    to: settings.shopEmail,
    replyTo: { name: row.customerName, address: row.email },
    subject: `Nouveau rendez-vous : ${formatWhen(row.startsAt)}`,
    text,
    template: null,
    templateParams: { to_email: settings.shopEmail, from_name: row.customerName, from_email: row.email, message: text },
  };
}
