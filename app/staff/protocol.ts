/**
 * Issue 29, staff accounts: what the browser and the server exchange under `/api/staff` (shapes, input
 * schemas, French messages, page paths), shared by `server/staff/` and the « Équipe » view, the manager's
 * set-up page and the invitation page. Pure: no server or browser APIs.
 *
 * | Method, path                                  | Who                  | Body                         | Success |
 * |-----------------------------------------------|----------------------|------------------------------|---------|
 * | GET  /api/staff                               | `staff:manage`       |                              | 200 `StaffListResponse` |
 * | POST /api/staff/invitations                   | `staff:manage`       | `{ email }`                  | 201 `{ invitation, message, mailSent, link? }` |
 * | DELETE /api/staff/invitations/:id             | `staff:manage`       |                              | 200 `{ message }` |
 * | POST /api/staff/members/:id/disable, /enable  | `staff:manage`       |                              | 200 `{ member, message }` |
 * | POST /api/staff/members/:id/password-reset    | `staff:manage`       |                              | 200 `{ message }` |
 * | POST /api/staff/invitation/check              | anyone (rate-limited) | `{ token }`                 | 200 `{ email }` |
 * | POST /api/staff/invitation/accept             | anyone (rate-limited) | `{ token, name, password }` | 201 `{ message }` + sign-in cookie |
 * | POST /api/staff/setup/check                   | anyone (rate-limited) | `{ token }`                 | 200 `{}` |
 * | POST /api/staff/setup                         | anyone (rate-limited) | `{ token, name, email, password }` | 201 `{ message }` + sign-in cookie |
 *
 * Refusals are `{ message, fieldErrors? }` in French: 400 bad input, 403 missing permission or the rule
 * against disabling oneself or the last manager, 404 unknown account, 409 address already used,
 * 410 link expired, used or unknown, 413 too large, 429 too many attempts (with `Retry-After`).
 */
import { z } from "zod";
import { ACCOUNT_LIMITS } from "#app/remote-support/account-limits.ts";
import { isTypableText } from "#app/utils/text.ts";

/** Where the manager's invitation link lands (`?jeton=`). */
export const INVITATION_PATH = "/soft-assist/invitation";
/** Where the one-time set-up link printed at first start lands (`?jeton=`). */
export const MANAGER_SETUP_PATH = "/soft-assist/gerant";
/** How long an invitation stays valid, ms (7 days). */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** How long the set-up link stays valid, ms (24 hours). */
export const SETUP_TTL_MS = 24 * 3600 * 1000;

/** The roles the « Équipe » view lists, and how it names them. */
export type StaffRole = "technician" | "manager";
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = { technician: "Technicien", manager: "Gérant" };

/** One staff account (dates ISO 8601). */
export type StaffMember = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  createdAt: string;
  lastSignInAt: string | null;
  /** Null while the account is active. */
  disabledAt: string | null;
};

/** An invitation not used yet (an expired one stays listed until the purge deletes it). */
export type PendingInvitation = { id: string; email: string; createdAt: string; expiresAt: string; expired: boolean };

export type StaffListResponse = { members: StaffMember[]; invitations: PendingInvitation[] };
export type StaffMemberResponse = { member: StaffMember; message: string };
/**
 * Issue 40: `mailSent` false when mail does not leave the server; `link` is then the invitation's link, for
 * the manager to pass on (absent when the mail went).
 */
export type InvitationResponse = { invitation: PendingInvitation; message: string; mailSent: boolean; link?: string };
export type StaffMessageResponse = { message: string };
export type InvitationCheckResponse = { email: string };

export const STAFF_MESSAGES = {
  badBody: "La requête est invalide.",
  invited: "Invitation envoyée. Le lien est valable 7 jours.",
  invitedNoMail:
    "L'envoi d'e-mails n'est pas configuré : l'invitation n'a pas été envoyée. Copiez le lien et transmettez-le vous-même au technicien (SMS, messagerie…) : il est valable 7 jours et ne sert qu'une fois.",
  revoked: "Invitation annulée.",
  disabled: "Compte désactivé : ses connexions sont terminées.",
  enabled: "Compte réactivé.",
  resetSent: "Un lien de réinitialisation du mot de passe a été envoyé.",
  resetNotSent:
    "L'envoi d'e-mails n'est pas configuré : le lien de réinitialisation n'a pas été envoyé, il est seulement écrit dans un fichier sur le serveur (dossier outbox). Configurez l'envoi d'e-mails (voir « Mise en ligne »).",
  notFound: "Ce compte n'existe pas ou ne fait pas partie de l'équipe.",
  invitationNotFound: "Cette invitation n'existe plus.",
  notYourself: "Vous ne pouvez pas désactiver votre propre compte.",
  lastManager: "C'est le dernier gérant actif : nommez-en un autre avant de désactiver ce compte.",
  alreadyStaff: "Cette adresse est déjà celle d'un compte de l'équipe.",
  invitationUnknown:
    "Ce lien d'invitation n'est pas valable (un lien plus récent l'a peut-être remplacé). Demandez un nouveau lien au gérant de l'atelier.",
  invitationExpired:
    "Ce lien d'invitation a expiré (il était valable 7 jours). Demandez un nouveau lien au gérant de l'atelier.",
  invitationUsed: "Ce lien d'invitation a déjà servi. Connectez-vous avec le compte créé.",
  emailTaken: "Un compte existe déjà avec cette adresse e-mail.",
  setupUnknown:
    "Ce lien de création du compte gérant n'est pas valable ou a expiré. Redémarrez le serveur : il en affiche un nouveau.",
  setupDone: "Un compte gérant existe déjà : ce lien ne sert plus. Connectez-vous.",
  created: "Votre compte est créé. Vous êtes connecté.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
} as const;

const name = z
  .string({ error: "Veuillez indiquer votre nom." })
  .trim()
  .min(1, { error: "Veuillez indiquer votre nom." })
  .max(ACCOUNT_LIMITS.name, { error: `Le nom ne doit pas dépasser ${ACCOUNT_LIMITS.name} caractères.` })
  .refine(isTypableText, { error: "Le nom contient des caractères non valides." });
const email = z
  .string({ error: "Veuillez indiquer une adresse e-mail." })
  .trim()
  .max(ACCOUNT_LIMITS.email, { error: `L'adresse e-mail ne doit pas dépasser ${ACCOUNT_LIMITS.email} caractères.` })
  .pipe(z.email({ error: "L'adresse e-mail n'est pas valide." }))
  .transform((address) => address.toLowerCase());
const password = z
  .string({ error: "Veuillez choisir un mot de passe." })
  .min(ACCOUNT_LIMITS.passwordMin, {
    error: `Le mot de passe doit contenir au moins ${ACCOUNT_LIMITS.passwordMin} caractères.`,
  })
  .max(ACCOUNT_LIMITS.passwordMax, {
    error: `Le mot de passe doit contenir au plus ${ACCOUNT_LIMITS.passwordMax} caractères.`,
  })
  .refine(isTypableText, { error: "Le mot de passe contient des caractères non valides." });
/** A link's token: 43 base64url characters (32 random bytes); anything else is not one of ours. */
const token = z.string({ error: STAFF_MESSAGES.badBody }).regex(/^[A-Za-z0-9_-]{43}$/, { error: "invalid-token" });

export const InviteInput = z.strictObject({ email }, { error: STAFF_MESSAGES.badBody });
export const TokenInput = z.strictObject({ token }, { error: STAFF_MESSAGES.badBody });
export const InvitationAcceptInput = z.strictObject({ token, name, password }, { error: STAFF_MESSAGES.badBody });
export const SetupInput = z.strictObject({ token, name, email, password }, { error: STAFF_MESSAGES.badBody });
