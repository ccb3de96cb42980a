/**
 * The contact message and the quote request (spec §3 entities, §5 validation,
 * §8 messages), as zod schemas shared by the forms (field limits) and the
 * server (route actions and `/api/contact`, `/api/quote`).
 *
 * The spec only says "required" (and e-mail / tel types); the length limits
 * below are ours, so that nothing unbounded reaches the database or a mail.
 * Every message is French and addressed to the visitor.
 */
import { z } from "zod";
import { MAILBOX_PLANS, type MailboxPlanId } from "#app/config/mailbox-plans.ts";
import { QUOTE_REPLY_HOURS } from "#app/config/shop.ts";
import { typedString } from "#app/utils/text.ts";
import { FORM_KEY_FIELD } from "./form-key.ts";

/** Limits in characters, also set as `maxLength` on the form fields. */
export const LIMITS = {
  name: 100,
  email: 254,
  message: 5000,
  companyName: 150,
  phone: 30,
  description: 5000,
  domain: 63,
  budget: 100,
} as const;

/**
 * Name of the honeypot field: hidden from people (and from assistive
 * technologies), left empty by them, filled by most spam robots.
 */
export const HONEYPOT_FIELD = "site_web";

/** Spec §8 and our own refusals, verbatim in the pages and the API. */
export const REQUEST_MESSAGES = {
  contactSuccess: "Message envoyé avec succès !",
  /** Issue 40: said after `contactSuccess`, when the shop answers. */
  contactAnswerDelay:
    "Nous vous répondons pendant nos heures d'ouverture, en général sous un jour ouvré, par e-mail ou par téléphone.",
  contactFailure: "Une erreur est survenue. Veuillez réessayer.",
  quoteSuccess: "Merci ! Votre demande a été envoyée avec succès.",
  quoteSuccessDetail: `Nous vous répondrons sous ${QUOTE_REPLY_HOURS} heures.`,
  quoteFailure: "Une erreur est survenue lors de l'envoi du formulaire. Veuillez réessayer.",
  invalid: "Certains champs sont à corriger : voir les messages sous chaque champ.",
  spam: "Votre demande a été refusée, car un champ invisible réservé à la détection des robots a été rempli. Si vous n'êtes pas un robot, appelez-nous ou écrivez-nous directement.",
  tooLarge: "Votre demande est trop volumineuse. Raccourcissez votre message et réessayez.",
  badJson: "Le contenu envoyé n'est pas un JSON valide.",
  badContentType: "Format non pris en charge : envoyez du JSON ou un formulaire.",
  unreadableForm: "Le formulaire envoyé est illisible. Rechargez la page et réessayez.",
  badFormContentType: "Cette page n'accepte que son formulaire. Rechargez la page et réessayez.",
} as const;

/** Issue 28: the hidden field of a form's one-time key (`form-key.ts`). */
export { FORM_KEY_FIELD };

/** The message of a form key that is not one we make (the page is too old, or was tampered with). */
export const FORM_KEY_MESSAGE = "Ce formulaire a expiré. Rechargez la page, puis envoyez-le de nouveau.";

/**
 * A form key as posted: absent or empty gives null (no key: nothing to recognise a retry by), else 16
 * to 64 letters, digits, `-` or `_` (a UUID is 36).
 */
export const FormKey = typedString({ error: FORM_KEY_MESSAGE })
  .trim()
  .max(64, { error: FORM_KEY_MESSAGE })
  .refine((value) => value === "" || /^[A-Za-z0-9_-]{16,64}$/.test(value), { error: FORM_KEY_MESSAGE })
  .optional()
  .transform((value) => (value ? value : null));

/** "Trop de demandes…" with the wait rounded up to whole minutes. */
export function rateLimitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de demandes ont été envoyées depuis votre connexion. Réessayez dans ${minutes} minute${minutes > 1 ? "s" : ""}, ou appelez-nous directement.`;
}

const required = (label: string) => `Veuillez indiquer ${label}.`;
/** Missing → "Veuillez indiquer…"; present but not a string (JSON API) → "doit être un texte". */
const notText = (label: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? required(label) : "Ce champ doit être un texte.";
const tooLong = (max: number) =>
  `Ce champ ne doit pas dépasser ${new Intl.NumberFormat("fr-FR").format(max)} caractères.`;

/**
 * A required free-text field: a string a person could type (no NUL, control
 * character or lone surrogate: issue 13 §7), trimmed, non-empty, at most `max` characters.
 */
function text(label: string, max: number) {
  return typedString({ error: notText(label) })
    .trim()
    .min(1, { error: required(label) })
    .max(max, { error: tooLong(max) });
}

const email = typedString({ error: notText("votre adresse e-mail") })
  .trim()
  .min(1, { error: required("votre adresse e-mail") })
  .max(LIMITS.email, { error: tooLong(LIMITS.email) })
  .pipe(z.email({ error: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr." }));

/** Spec §3 "Contact message": name, email, message. */
export const ContactInput = z.object({
  name: text("votre nom", LIMITS.name),
  email,
  message: text("votre message", LIMITS.message),
});
export type ContactInput = z.infer<typeof ContactInput>;

/** French numbers, international numbers: digits with the usual separators. */
const PHONE_PATTERN = /^\+?[0-9][0-9 .()-]{5,}$/;
/** One DNS label, typed without its extension (spec: ".com" is shown next to it). */
const DOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const ASCII_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const EXTENSION = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Issue 40: a name typed with its own extension (« boulangerie-lemoine.fr », « .bzh », an accented name such as
 * « café-dupont.fr »): valid once written as DNS writes it (the URL parser's punycode), one label per dot.
 */
export function isDomainWithExtension(value: string): boolean {
  if (!value.includes(".")) return false;
  let ascii: string;
  try {
    ascii = new URL(`http://${value}`).hostname;
  } catch {
    return false;
  }
  const labels = ascii.split(".");
  return labels.length >= 2 && labels.every((label) => ASCII_LABEL.test(label)) && EXTENSION.test(labels.at(-1)!);
}

/** The domain as the shop reads it: a name typed without extension gets the form's « .com » (spec §2). */
export function fullDomain(domain: string): string {
  return domain.includes(".") ? domain : `${domain}.com`;
}

/** The refusal of a domain that is not one. */
export const DOMAIN_REFUSAL =
  "Le nom de domaine ne peut contenir que des lettres, des chiffres et des tirets, avec ou sans son extension (par exemple mon-entreprise ou mon-entreprise.fr).";

const planIds = MAILBOX_PLANS.map((plan) => plan.id) as [MailboxPlanId, ...MailboxPlanId[]];

/**
 * Spec §3 "Quote request"; every field required (§5). `domain`: the name without « .com » (typed without
 * extension, or with « .com »), or with the extension typed (issue 40); `fullDomain` reads it.
 */
export const QuoteInput = z.object({
  companyName: text("le nom de votre entreprise", LIMITS.companyName),
  contactName: text("le nom de la personne à contacter", LIMITS.name),
  email,
  phone: text("votre numéro de téléphone", LIMITS.phone).regex(PHONE_PATTERN, {
    error: "Veuillez indiquer un numéro de téléphone valide, par exemple 01 23 45 67 89.",
  }),
  description: text("la description de votre projet", LIMITS.description),
  domain: typedString({ error: notText("le nom de domaine souhaité") })
    .trim()
    .toLowerCase()
    // People often type the extension anyway: the form shows ".com" after the field.
    .transform((value) => value.replace(/^(?:https?:\/\/)?(?:www\.)?/, "").replace(/\.com$/, ""))
    .pipe(
      z
        .string()
        .min(1, { error: required("le nom de domaine souhaité") })
        .max(LIMITS.domain, { error: tooLong(LIMITS.domain) })
        .refine((value) => DOMAIN_PATTERN.test(value) || isDomainWithExtension(value), {
          error: DOMAIN_REFUSAL,
        }),
    ),
  emailOption: z.enum(planIds, { error: "Veuillez choisir une offre de boîte mail dans la liste." }),
  budget: text("votre budget", LIMITS.budget),
});
export type QuoteInput = z.infer<typeof QuoteInput>;

export type RequestKind = "contact" | "quote";
export type FieldErrors = Partial<Record<string, string>>;

/**
 * What submitting a form yields, to an action or to the API:
 * `stored` (in the database with its outbox message: the visitor can be told
 * it is sent), `invalid` (nothing stored), `spam` (honeypot filled), `rate-limited`,
 * or `failed` (the database could not store it: nothing half-stored).
 */
export type SubmissionResult =
  | { status: "stored"; id: string }
  | { status: "invalid"; fieldErrors: FieldErrors }
  | { status: "spam" }
  | { status: "rate-limited"; retryAfterSeconds: number }
  | { status: "failed" };

/** HTTP status of each result (201, 400, 400, 429, 503). */
export function statusOf(result: SubmissionResult): number {
  switch (result.status) {
    case "stored":
      return 201;
    case "invalid":
    case "spam":
      return 400;
    case "rate-limited":
      return 429;
    case "failed":
      return 503;
  }
}

/** The sentences that differ between the contact form and the quote form (spec §8). */
const KIND_MESSAGES: Record<RequestKind, { stored: string; failed: string }> = {
  contact: { stored: REQUEST_MESSAGES.contactSuccess, failed: REQUEST_MESSAGES.contactFailure },
  quote: { stored: REQUEST_MESSAGES.quoteSuccess, failed: REQUEST_MESSAGES.quoteFailure },
};

/** The French sentence shown for a result of a contact (`kind` "contact") or quote form. */
export function messageOf(kind: RequestKind, result: SubmissionResult): string {
  switch (result.status) {
    case "stored":
    case "failed":
      return KIND_MESSAGES[kind][result.status];
    case "invalid":
      // A form key we did not make is no field the visitor can correct (issue 28).
      return result.fieldErrors[FORM_KEY_FIELD] ?? REQUEST_MESSAGES.invalid;
    case "spam":
      return REQUEST_MESSAGES.spam;
    case "rate-limited":
      return rateLimitedMessage(result.retryAfterSeconds);
  }
}

/**
 * Validates raw input (a parsed JSON body or form fields) with `schema`.
 * Unknown fields are ignored; the first message per field is kept.
 */
export function validate<T>(
  schema: z.ZodType<T>,
  input: unknown,
): { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, fieldErrors: { _form: "Le contenu envoyé doit être un objet avec les champs du formulaire." } };
  }
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "_form");
    fieldErrors[field] ??= issue.message;
  }
  return { ok: false, fieldErrors };
}
