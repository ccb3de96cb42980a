/**
 * Issue 18 §2, the zod schemas of repair tracking: the staff API's bodies
 * (open a ticket, change its status, enter a quote, and issue 40's edit of
 * the deposit's state and accessories) and the public tracking
 * form. Every refusal is French and names the field; free text follows the
 * site's "typable text" rule (`typedString`, issue 13 §7). Apart from
 * `protocol.ts` so that screens needing only types do not download zod.
 */
import { z } from "zod";
import { validate, type FieldErrors } from "#app/requests/schemas.ts";
import { typedString } from "#app/utils/text.ts";
import { REPAIR_LIMITS } from "./protocol.ts";
import { QUOTE_DECISIONS, REPAIR_STATUSES } from "./statuses.ts";

const required = (label: string) => `Veuillez indiquer ${label}.`;
const notText = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? required(label) : "Ce champ doit être un texte.";
const tooLong = (max: number) =>
  `Ce champ ne doit pas dépasser ${new Intl.NumberFormat("fr-FR").format(max)} caractères.`;

/** A required free-text field, trimmed, non-empty, at most `max` characters. */
const text = (label: string, max: number) =>
  typedString({ error: notText(label) })
    .trim()
    .min(1, { error: required(label) })
    .max(max, { error: tooLong(max) });

/** An optional free-text field: absent, null or blank is undefined. */
const optionalText = (max: number) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    typedString({ error: "Ce champ doit être un texte." })
      .trim()
      .max(max, { error: tooLong(max) })
      .optional(),
  );

/** Whole euros: a JSON integer, or a form's digits ("89"). */
const euros = (label: string, min = 0) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => (issue.input === undefined ? required(label) : `Indiquez ${label} en euros.`) })
      .int({ error: `Indiquez ${label} en euros entiers, sans centimes.` })
      .min(min, { error: `Indiquez ${label} en euros (au moins ${min} €).` })
      .max(REPAIR_LIMITS.euros, { error: `Le montant ne peut pas dépasser ${REPAIR_LIMITS.euros} €.` }),
  );
const optionalEuros = (label: string) =>
  z.preprocess((value) => (value === null || value === "" ? undefined : value), euros(label).optional());

const email = typedString({ error: notText("l'adresse e-mail du client") })
  .trim()
  .min(1, { error: required("l'adresse e-mail du client") })
  .max(REPAIR_LIMITS.email, { error: tooLong(REPAIR_LIMITS.email) })
  .pipe(z.email({ error: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr." }));

const phone = text("le téléphone du client", REPAIR_LIMITS.phone).regex(/^\+?[0-9][0-9 .()-]{5,}$/, {
  error: "Veuillez indiquer un numéro de téléphone valide, par exemple 06 12 34 56 78.",
});

/** What both ways of opening a ticket may add: the device's state, what was left with it, a price. */
const dropOff = {
  conditionNotes: optionalText(REPAIR_LIMITS.conditionNotes),
  accessories: optionalText(REPAIR_LIMITS.accessories),
  priceEuros: optionalEuros("le prix annoncé"),
};

/** `POST /api/repairs` from an appointment: model, repair, price and contact come from it. */
export const TicketFromAppointment = z.object({
  appointmentId: z.uuid({ error: "Identifiant de rendez-vous invalide." }),
  ...dropOff,
});

/** `POST /api/repairs` for a walk-in: everything typed at the counter. */
export const WalkInTicket = z.object({
  modelName: text("le modèle de l'appareil", REPAIR_LIMITS.modelName),
  repairLabel: text("la réparation demandée", REPAIR_LIMITS.repairLabel),
  customerName: text("le nom du client", REPAIR_LIMITS.customerName),
  email,
  phone,
  ...dropOff,
});

export type OpenTicketInput =
  | ({ kind: "appointment" } & z.infer<typeof TicketFromAppointment>)
  | ({ kind: "walk-in" } & z.infer<typeof WalkInTicket>);

/** A field-by-field refusal: `fieldErrors` for the form, `message` (the first one) for the API. */
export type Invalid = { ok: false; message: string; fieldErrors: FieldErrors };
type Checked<T> = { ok: true; data: T } | Invalid;

function check<T>(schema: z.ZodType<T>, input: unknown): Checked<T> {
  const result = validate(schema, input);
  if (result.ok) return result;
  const message = Object.values(result.fieldErrors)[0] ?? "Le contenu envoyé est invalide.";
  return { ok: false, message, fieldErrors: result.fieldErrors };
}

const hasAppointment = (input: unknown) =>
  typeof input === "object" &&
  input !== null &&
  "appointmentId" in input &&
  input.appointmentId !== undefined &&
  input.appointmentId !== null &&
  input.appointmentId !== "";

/** Validates a ticket opening: from an appointment when `appointmentId` is given, else a walk-in. */
export function parseOpenTicket(input: unknown): Checked<OpenTicketInput> {
  if (hasAppointment(input)) {
    const checked = check(TicketFromAppointment, input);
    return checked.ok ? { ok: true, data: { kind: "appointment", ...checked.data } } : checked;
  }
  const checked = check(WalkInTicket, input);
  return checked.ok ? { ok: true, data: { kind: "walk-in", ...checked.data } } : checked;
}

/** `POST /api/repairs/:id/status`: the new status and the note sent to the customer. */
export const StatusChange = z.object({
  status: z.enum(REPAIR_STATUSES, { error: "Choisissez un statut dans la liste." }),
  note: optionalText(REPAIR_LIMITS.note),
});
export type StatusChange = z.infer<typeof StatusChange>;
export const parseStatusChange = (input: unknown) => check(StatusChange, input);

/** `POST /api/repairs/:id/quote`: what the diagnosis found and its price. */
export const QuoteEntry = z.object({
  description: text("la description du devis", REPAIR_LIMITS.quoteDescription),
  amountEuros: euros("le montant du devis", 1),
  note: optionalText(REPAIR_LIMITS.note),
});
export type QuoteEntry = z.infer<typeof QuoteEntry>;
export const parseQuoteEntry = (input: unknown) => check(QuoteEntry, input);

/**
 * `POST /api/repairs/:id/drop-off` (issue 40): « État au dépôt » and « Accessoires laissés », both replaced
 * together (the form sends both); a blank field clears its value.
 */
export const DropOffEdit = z.object({
  conditionNotes: dropOff.conditionNotes,
  accessories: dropOff.accessories,
});
export type DropOffEdit = z.infer<typeof DropOffEdit>;
export const parseDropOffEdit = (input: unknown) => check(DropOffEdit, input);

/** The tracking form: the code and "E-mail ou téléphone". */
export const TrackingQuery = z.object({
  code: text("le code de suivi", 20),
  contact: text("votre adresse e-mail ou votre numéro de téléphone", REPAIR_LIMITS.contact),
});
export type TrackingQuery = z.infer<typeof TrackingQuery>;
export const parseTrackingQuery = (input: unknown) => check(TrackingQuery, input);

/** `POST /api/repairs/:id/decision`: the answer the customer gave staff (phone, counter). */
export const QuoteDecisionBody = z.object({
  decision: z.enum(QUOTE_DECISIONS, { error: "Choisissez d'accepter ou de refuser le devis." }),
});
export const parseQuoteDecision = (input: unknown) => check(QuoteDecisionBody, input);

/**
 * The customer's answer to a quote, from the tracking page's confirmation (issue 30): `amountEuros` is the
 * amount they confirmed, whole euros; the answer is refused when the quote's amount is no longer that one.
 * Optional, so that a form sent before it existed still counts.
 */
export const QuoteAnswer = TrackingQuery.extend({
  ...QuoteDecisionBody.shape,
  amountEuros: optionalEuros("le montant du devis"),
});
export type QuoteAnswer = z.infer<typeof QuoteAnswer>;
export const parseQuoteAnswer = (input: unknown) => check(QuoteAnswer, input);
