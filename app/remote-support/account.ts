/**
 * Account field rules and the French refusals of `/api/auth` (issue 13 §5,
 * §7, §10), shared by the server (better-auth hooks, `server/auth-http.ts`)
 * and the browser (sign-in forms, `client/api.ts`). Pure: no server or
 * browser APIs.
 *
 * better-auth bounds the password (8–128) but not the name or the e-mail: a
 * 50 MB name was stored, then sent back by `/api/me`, the join answer and the
 * history. `AccountFields` bounds them and refuses untypable text.
 */
import { z } from "zod";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { isTypableText, typedString, UNTYPABLE_TEXT_MESSAGE } from "#app/utils/text.ts";

import { ACCOUNT_LIMITS } from "./account-limits.ts";

export { ACCOUNT_LIMITS };

/**
 * The `code` of every refusal written by our own layers (body reader,
 * hooks, limits) rather than by better-auth: their `message` is French and
 * meant to be shown as is.
 */
export const FRENCH_AUTH_CODES = {
  tooLarge: "CONTENU_TROP_VOLUMINEUX",
  badBody: "CONTENU_INVALIDE",
  badContentType: "FORMAT_NON_PRIS_EN_CHARGE",
  badField: "CHAMP_INVALIDE",
  tooManyAttempts: "TROP_DE_TENTATIVES",
  failed: "ERREUR_SERVEUR",
  /** Issue 29: the account was disabled by the shop's manager. */
  accountDisabled: "COMPTE_DESACTIVE",
} as const;
/** Issue 29: the answer to a sign-in of a disabled account (right password or not, no session is made). */
export const ACCOUNT_DISABLED_MESSAGE = "Ce compte est désactivé. Contactez le gérant de l'atelier.";
const frenchCodes = new Set<string>(Object.values(FRENCH_AUTH_CODES));

/** Whether an `/api/auth` refusal carries one of our French messages (see `FRENCH_AUTH_CODES`). */
export function isFrenchAuthCode(code: string | undefined): boolean {
  return code !== undefined && frenchCodes.has(code);
}

export const ACCOUNT_MESSAGES = {
  tooLarge: "Le contenu envoyé est trop volumineux.",
  badUtf8: "Le contenu envoyé n'est pas du texte UTF-8 valide.",
  badJson: "Le contenu envoyé n'est pas du JSON valide.",
  notAnObject: "Le contenu envoyé doit être un objet JSON.",
  badContentType: "Format non pris en charge : envoyez du JSON (Content-Type: application/json).",
  badRequest: "La requête est invalide.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
} as const;

/**
 * "Trop de tentatives…" with the wait: "une minute" up to 60 s (the sentence
 * the sign-in form has always shown), else whole minutes rounded up.
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes === 1 ? "une minute" : `${minutes} minutes`}.`;
}

const accountEmail = typedString({ error: "L'adresse e-mail doit être un texte." }).max(ACCOUNT_LIMITS.email, {
  error: `L'adresse e-mail ne doit pas dépasser ${ACCOUNT_LIMITS.email} caractères.`,
});

/**
 * The account fields of any `/api/auth` body, where present (better-auth
 * checks which are required): `name` 1–100 characters, not blank;
 * `email`/`newEmail` at most 254; `image` at most 2 048; all typable text.
 * Any other string field (password, token, callback URL…) must be typable
 * text too; better-auth checks the rest.
 */
export const AccountFields = z
  .object({
    name: typedString({ error: "Le nom doit être un texte." })
      .max(ACCOUNT_LIMITS.name, { error: `Le nom ne doit pas dépasser ${ACCOUNT_LIMITS.name} caractères.` })
      .refine((name) => name.trim() !== "", { error: "Veuillez indiquer votre nom." })
      .optional(),
    email: accountEmail.optional(),
    newEmail: accountEmail.optional(),
    image: typedString({ error: "L'image doit être une adresse." })
      .max(ACCOUNT_LIMITS.image, {
        error: `L'adresse de l'image ne doit pas dépasser ${ACCOUNT_LIMITS.image} caractères.`,
      })
      .nullable()
      .optional(),
  })
  .catchall(
    z.unknown().refine((value) => typeof value !== "string" || isTypableText(value), { error: UNTYPABLE_TEXT_MESSAGE }),
  );

/**
 * The query string of any `/api/auth` request (a reset link's `token`, a `callbackURL`…): typable text only.
 * better-auth reads a token from the query when the body has none; a NUL there reached PostgreSQL (500).
 */
export const AccountQuery = z.record(
  z.string(),
  z.unknown().refine((value) => typeof value !== "string" || isTypableText(value), { error: UNTYPABLE_TEXT_MESSAGE }),
);

/** better-auth error codes (`{ code, message }` in English) → the French sentence shown. */
export function authMessage(status: number, code: string | undefined, fallback: string): string {
  if (status === 429) return SESSION_MESSAGES.tooManyAttempts;
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_EMAIL":
    case "INVALID_PASSWORD":
      return "E-mail ou mot de passe incorrect.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "Un compte existe déjà avec cette adresse e-mail.";
    case "PASSWORD_TOO_SHORT":
      return "Le mot de passe doit contenir au moins 8 caractères.";
    case "PASSWORD_TOO_LONG":
      return "Le mot de passe doit contenir au plus 128 caractères.";
    case "INVALID_TOKEN":
      return "Ce lien de réinitialisation n'est plus valable. Demandez-en un nouveau.";
    default:
      return fallback;
  }
}

/** Which form of the signed-out /soft-assist was sent (the `intent` field). */
export const ACCOUNT_INTENTS = ["sign-in", "sign-up", "forgot"] as const;

const formText = (max: number) => z.string().max(max, { error: ACCOUNT_MESSAGES.badRequest });
const formPassword = z.string().max(ACCOUNT_LIMITS.passwordMax, {
  error: `Le mot de passe doit contenir au plus ${ACCOUNT_LIMITS.passwordMax} caractères.`,
});

/**
 * The fields of the signed-out /soft-assist forms as posted (issue 16 §1:
 * they work before any JavaScript runs). Only shapes and lengths here: the
 * account rules (`AccountFields`, password bounds) are checked by the same
 * better-auth layers as `/api/auth`. Refused: a missing or unknown `intent`.
 */
export const AccountFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("sign-in"),
    email: formText(ACCOUNT_LIMITS.email).transform((email) => email.trim()),
    password: formPassword,
  }),
  z.object({
    intent: z.literal("sign-up"),
    name: formText(ACCOUNT_LIMITS.name).transform((name) => name.trim()),
    email: formText(ACCOUNT_LIMITS.email).transform((email) => email.trim()),
    password: formPassword,
  }),
  z.object({ intent: z.literal("forgot"), email: formText(ACCOUNT_LIMITS.email).transform((email) => email.trim()) }),
]);
export type AccountForm = z.infer<typeof AccountFormSchema>;
