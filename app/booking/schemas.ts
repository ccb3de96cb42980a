/**
 * Issue 18 §1: what a visitor sends to book, move or cancel an appointment,
 * and every French message the booking pages and mails show. Field limits
 * are the contact form's (`app/requests/schemas.ts`), and the honeypot is
 * the same field.
 */
import { z } from "zod";
import { FORM_KEY_FIELD, FormKey, HONEYPOT_FIELD, LIMITS } from "#app/requests/schemas.ts";
import { typedString } from "#app/utils/text.ts";
import type { AppointmentStatus } from "#database/schema-booking.ts";

export { FORM_KEY_FIELD, HONEYPOT_FIELD };

/** Longest note, characters (also the table's check). */
export const NOTE_MAX = 1000;

const required = (label: string) => `Veuillez indiquer ${label}.`;
const tooLong = (max: number) =>
  `Ce champ ne doit pas dépasser ${new Intl.NumberFormat("fr-FR").format(max)} caractères.`;

function text(label: string, max: number) {
  return typedString({ error: required(label) })
    .trim()
    .min(1, { error: required(label) })
    .max(max, { error: tooLong(max) });
}

/** A slot's start as the pages post it: an ISO 8601 instant. */
export const SlotStart = typedString({ error: "Choisissez un créneau." })
  .trim()
  .min(1, { error: "Choisissez un créneau." })
  .max(40, { error: "Choisissez un créneau." })
  .transform((value, context) => {
    const start = new Date(value);
    if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(start.getTime())) {
      context.addIssue({ code: "custom", message: "Choisissez un créneau." });
      return z.NEVER;
    }
    return start;
  });

/** A French or international phone number: digits, spaces, dots, dashes, brackets and one leading +; 10 to 15 digits. */
const phone = text("votre numéro de téléphone", LIMITS.phone).refine(
  (value) => /^\+?[\d\s.()-]+$/.test(value) && /^\d{10,15}$/.test(value.replace(/\D/g, "")),
  { error: "Veuillez indiquer un numéro de téléphone valide, par exemple 06 12 34 56 78." },
);

/** The booking form (no account needed). `model`/`repair` are catalogue slugs; both absent = free diagnosis. */
export const BookingInput = z.object({
  slot: SlotStart,
  name: text("votre nom", LIMITS.name),
  email: text("votre adresse e-mail", LIMITS.email).pipe(
    z.email({ error: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr." }),
  ),
  phone,
  note: typedString({ error: "Ce champ doit être un texte." })
    .trim()
    .max(NOTE_MAX, { error: tooLong(NOTE_MAX) })
    .optional()
    .transform((value) => (value ? value : null)),
  model: typedString().trim().max(100, { error: "Modèle inconnu." }).optional(),
  repair: typedString().trim().max(40, { error: "Réparation inconnue." }).optional(),
  /** Issue 28: the form's one-time key (`FORM_KEY_FIELD`), drawn when the page was rendered; null if none. */
  [FORM_KEY_FIELD]: FormKey,
});
export type BookingInput = z.infer<typeof BookingInput>;

/** French labels of the appointment statuses (agenda, manage page, mails). */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  requested: "À confirmer",
  confirmed: "Confirmé",
  cancelled: "Annulé",
};

/**
 * Issue 40: what a status means for the customer, under it on the manage page. True to the code: an
 * online booking stays « À confirmer » until staff confirm it in the agenda, which mails the customer
 * (« Votre rendez-vous est confirmé »), as a move by the shop does; a customer's own move keeps the status.
 */
export const APPOINTMENT_STATUS_HELP: Record<Exclude<AppointmentStatus, "cancelled">, string> = {
  requested:
    "L'atelier n'a pas encore confirmé ce créneau : vous recevrez un e-mail dès qu'il l'aura fait, ou s'il doit le déplacer.",
  confirmed: "L'atelier a confirmé ce créneau : nous vous attendons à l'heure dite.",
};

/** « À confirmer » explained when the site sends no mail (`useCustomerMail` false). */
export const REQUESTED_HELP_WITHOUT_MAIL =
  "L'atelier n'a pas encore confirmé ce créneau : revenez sur cette page pour le voir, ou appelez l'atelier.";

/** Every message of the booking pages. */
export const BOOKING_MESSAGES = {
  booked: "Votre rendez-vous est enregistré.",
  bookedDetail: "Un e-mail de confirmation vient de vous être envoyé, avec l'invitation à ajouter à votre agenda.",
  slotTaken:
    "Ce créneau vient d'être réservé par quelqu'un d'autre. Choisissez l'un des créneaux libres ci-dessous : vos informations sont conservées.",
  slotUnavailable: "Ce créneau n'est plus proposé. Choisissez l'un des créneaux libres ci-dessous.",
  linkInvalid: "Ce lien n'est pas valide ou a expiré. Pour modifier votre rendez-vous, appelez-nous ou écrivez-nous.",
  cancelled: "Votre rendez-vous est annulé. Un e-mail de confirmation vous a été envoyé.",
  moved: "Votre rendez-vous est déplacé. Un e-mail avec la nouvelle date vous a été envoyé.",
  /** Issue 40: the same three notices when the site sends no mail: the page's link is the customer's only way back. */
  bookedDetailWithoutMail:
    "Gardez le lien de cette page (ajoutez-la à vos favoris) : il permet de déplacer ou d'annuler votre rendez-vous.",
  cancelledWithoutMail: "Votre rendez-vous est annulé.",
  movedWithoutMail:
    "Votre rendez-vous est déplacé. Le lien de cette page a changé avec la date : gardez celui-ci (ajoutez la page à vos favoris), l'ancien ne fonctionne plus.",
  alreadyCancelled: "Ce rendez-vous est annulé.",
  past: "Ce rendez-vous est passé : il ne peut plus être modifié en ligne.",
  failed: "Votre demande n'a pas pu être enregistrée. Réessayez dans un instant, ou appelez-nous.",
  noSlots: "Aucun créneau libre sur cette période. Essayez la semaine suivante, ou appelez-nous.",
  /** Issue 28 §4: a slot before the lead time or after the last bookable date (never offered). */
  outsideWindow:
    "Ce créneau est en dehors des dates de réservation en ligne. Choisissez un créneau dans le calendrier.",
  /** Issue 28 §5: the cap of upcoming appointments per e-mail or phone. */
  tooManyUpcoming: (max: number, phone: string) =>
    `Vous avez déjà ${max} rendez-vous à venir avec cette adresse e-mail ou ce numéro de téléphone. Pour en prendre un autre, appelez l'atelier au ${phone}.`,
  /** Issue 28 §5: the limit of confirmation mails per address and day; `phone`: the shop's (issue 29: current). */
  tooManyMails: (phone: string) =>
    `Trop de rendez-vous ont été demandés aujourd'hui avec cette adresse e-mail. Pour en prendre un autre, appelez l'atelier au ${phone}.`,
  /** Issue 28: the form's key already made a booking with other details (a page reused after booking). */
  keyUsed: "Ce formulaire a déjà servi à prendre un rendez-vous. Rechargez la page pour en prendre un autre.",
  /** Issue 28 §10: what a cancelled booking's page shows, and nothing else. */
  cancelledPage: "Ce rendez-vous a été annulé.",
} as const;
