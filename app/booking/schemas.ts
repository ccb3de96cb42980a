/**
 * Issue 18 §1: what a visitor sends to book, move or cancel an appointment,
 * and every French message the booking pages and mails show. Field limits
 * are the contact form's (`app/requests/schemas.ts`), and the honeypot is
 * the same field.
 */
import { z } from "zod";
import { HONEYPOT_FIELD, LIMITS } from "#app/requests/schemas.ts";
import { typedString } from "#app/utils/text.ts";
import type { AppointmentStatus } from "#database/schema-booking.ts";

export { HONEYPOT_FIELD };

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
});
export type BookingInput = z.infer<typeof BookingInput>;

/** French labels of the appointment statuses (agenda, manage page, mails). */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  requested: "À confirmer",
  confirmed: "Confirmé",
  cancelled: "Annulé",
};

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
  alreadyCancelled: "Ce rendez-vous est annulé.",
  past: "Ce rendez-vous est passé : il ne peut plus être modifié en ligne.",
  failed: "Votre demande n'a pas pu être enregistrée. Réessayez dans un instant, ou appelez-nous.",
  noSlots: "Aucun créneau libre sur cette période. Essayez la semaine suivante, ou appelez-nous.",
} as const;
