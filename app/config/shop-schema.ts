/**
 * Issue 29 « Boutique »: the shop's identity as the manager edits it (name, tagline, phone, e-mail,
 * address, opening hours, legal notices, host), one zod schema for the dashboard form, `PUT
 * /api/shop/identity` and the stored row (`shop_identity.identity`, validated again on every read).
 *
 * `ShopIdentityInput` is what the form sends and the database keeps (the phone as typed, e.g.
 * "01 99 00 12 34"); `ShopIdentity` is what pages and mails read once parsed (the phone both for display
 * and in E.164, days sorted). Messages are French, one per field, under the field's path
 * (`identityFieldErrors`). Pure: no server or browser APIs.
 */
import { z } from "zod";
import { typedString } from "#app/utils/text.ts";

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const WEEKDAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"] as const;

/** "09:30" → 570 (minutes since midnight). */
function minutes(time: string): number {
  const [hours, mins] = time.split(":").map(Number) as [number, number];
  return hours * 60 + mins;
}

/** A required line of text, trimmed, at most `max` characters. */
function line(label: string, max: number) {
  return typedString({ error: `${label} : texte attendu.` })
    .trim()
    .min(1, { error: `${label} : à renseigner.` })
    .max(max, { error: `${label} : ${max} caractères au plus.` });
}

/**
 * A French phone number as people type it ("01 99 00 12 34", "01.99.00.12.34", "+33 1 99 00 12 34",
 * "0033199001234") → `{ display: "01 99 00 12 34", e164: "+33199001234" }`, or undefined when it is not
 * a French number of 10 digits starting with 0 (then 1–9).
 */
export function parseFrenchPhone(value: string): { display: string; e164: string } | undefined {
  const compact = value.replace(/[\s.\-()]/g, "");
  const national = compact.replace(/^(?:\+33|0033)(?=[1-9])/, "0");
  if (!/^0[1-9]\d{8}$/.test(national)) return undefined;
  return { display: national.replace(/(\d\d)(?=\d)/g, "$1 "), e164: `+33${national.slice(1)}` };
}

const Phone = typedString({ error: "Téléphone : texte attendu." })
  .trim()
  .max(30, { error: "Numéro de téléphone trop long." })
  .transform((value, context) => {
    const phone = parseFrenchPhone(value);
    if (!phone) {
      context.addIssue({
        code: "custom",
        message: "Numéro de téléphone français attendu, par exemple 01 23 45 67 89.",
      });
      return z.NEVER;
    }
    return phone;
  });

const Time = typedString({ error: "Heure attendue au format HH:MM." }).regex(TIME, {
  error: "Heure attendue au format HH:MM, par exemple 09:00.",
});

/** One line of opening hours: the same hours on `days` (ISO weekdays, 1 = lundi … 7 = dimanche). */
export const OpeningSlotSchema = z
  .object({
    days: z
      .array(
        z
          .number({ error: "Jour attendu." })
          .int()
          .min(1, { error: "Jour inconnu." })
          .max(7, { error: "Jour inconnu." }),
        {
          error: "Jours attendus.",
        },
      )
      .min(1, { error: "Cochez au moins un jour." })
      .max(7, { error: "Sept jours au plus." })
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    opens: Time,
    closes: Time,
    byAppointment: z.boolean({ error: "Oui ou non attendu." }).default(false),
  })
  // A wrong time already has its own message: compare only two valid ones.
  .refine((slot) => !TIME.test(slot.opens) || !TIME.test(slot.closes) || minutes(slot.opens) < minutes(slot.closes), {
    error: "L'heure de fermeture doit suivre l'heure d'ouverture.",
    path: ["closes"],
  });
export type OpeningSlot = z.infer<typeof OpeningSlotSchema>;

/** Most opening lines the form accepts (a different line per day, twice a day, is 14). */
export const MAX_OPENING_SLOTS = 14;

export const ShopIdentitySchema = z.object({
  name: line("Nom de la boutique", 80),
  /** Short tagline used in titles and the footer. */
  tagline: line("Slogan", 120),
  phone: Phone,
  email: typedString({ error: "Adresse e-mail attendue." })
    .trim()
    .max(254, { error: "Adresse e-mail trop longue." })
    .pipe(z.email({ error: "Adresse e-mail invalide, par exemple contact@exemple.fr." })),
  address: z.object({
    street: line("Rue", 120),
    postalCode: typedString({ error: "Code postal attendu." })
      .trim()
      .regex(/^\d{5}$/, { error: "Code postal à 5 chiffres attendu, par exemple 75011." }),
    city: line("Ville", 80),
    /** ISO 3166 country code: the shop is in France (schema.org's `addressCountry`). */
    country: z.literal("FR", { error: "La boutique est en France (FR)." }).default("FR"),
  }),
  /** Spec §9 by default: Mon–Fri 9h–14h, and 14h–19h by appointment. No line: hours not shown. */
  openingHours: z
    .array(OpeningSlotSchema, { error: "Horaires attendus." })
    .max(MAX_OPENING_SLOTS, { error: `${MAX_OPENING_SLOTS} lignes d'horaires au plus.` })
    // They are also the booking's default hours (app/booking/settings.ts), where ranges may not overlap.
    .superRefine((slots, context) => {
      for (let day = 1; day <= 7; day++) {
        const ranges = slots
          .filter((slot) => slot.days.includes(day))
          .map((slot) => [minutes(slot.opens), minutes(slot.closes)] as const)
          .toSorted((a, b) => a[0] - b[0]);
        if (ranges.some((range, index) => index > 0 && range[0] < ranges[index - 1]![1])) {
          context.addIssue({
            code: "custom",
            message: `Deux lignes d'horaires du ${WEEKDAYS[day - 1]} se chevauchent.`,
          });
          return;
        }
      }
    }),
  legal: z.object({
    entity: line("Raison sociale", 160),
    form: line("Forme juridique", 120),
    /** Share capital, whole euros. */
    capitalEuros: z
      .number({ error: "Capital attendu en euros." })
      .int({ error: "Capital attendu en euros entiers." })
      .min(0, { error: "Le capital ne peut pas être négatif." })
      .max(1_000_000_000, { error: "Capital trop élevé." }),
    registration: line("Immatriculation (RCS)", 120),
    vatNumber: line("Numéro de TVA", 60),
    publicationDirector: line("Directeur de la publication", 120),
    host: z.object({
      name: line("Hébergeur", 120),
      address: line("Adresse de l'hébergeur", 200),
      phone: line("Téléphone de l'hébergeur", 60),
    }),
  }),
});

/** The identity as pages, mails and the assistant read it (phone parsed, days sorted). */
export type ShopIdentity = z.output<typeof ShopIdentitySchema>;
/** The identity as the form sends it and the database keeps it (phone as typed). */
export type ShopIdentityInput = z.input<typeof ShopIdentitySchema>;

/** The form's values for `identity` (the inverse of parsing: the phone as displayed). */
export function toIdentityInput(identity: ShopIdentity): ShopIdentityInput {
  return { ...identity, phone: identity.phone.display };
}

/**
 * French messages by field path ("phone", "address.postalCode", "openingHours.0.closes"), the first of
 * each field; "" for an error about the whole object.
 */
export function identityFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".");
    errors[key] ??= issue.message;
  }
  return errors;
}
