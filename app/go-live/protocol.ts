/**
 * Issue 40, « The manager »: what the browser and the server exchange about going live — whether mail leaves
 * the server, the test mail of « Boutique », and the « Mise en ligne » checklist. Shared by `server/go-live/`
 * and the dashboard's views. Pure: no server or browser APIs.
 *
 * | Method, path           | Who             | Body | Success |
 * |------------------------|-----------------|------|---------|
 * | GET  /api/mail/status  | `requests:read` (staff) |      | 200 `MailStatus` |
 * | POST /api/mail/test    | `shop:manage`   |      | 200 `TestMailAnswer` (sent); 409 not configured; 502 refused by the mail server |
 * | GET  /api/go-live      | `shop:manage`   |      | 200 `GoLiveChecklist` |
 *
 * Refusals are `{ message }` in French: 401, 403, 429 (with `Retry-After`: `TEST_MAIL_LIMIT`).
 */

export const MAIL_STATUS_PATH = "/api/mail/status";
export const TEST_MAIL_PATH = "/api/mail/test";
export const GO_LIVE_PATH = "/api/go-live";

/** Test mails per manager and window: enough to try a fix a few times, never a mail cannon. */
export const TEST_MAIL_LIMIT = { points: 5, durationSeconds: 3600 } as const;

/**
 * Whether mail leaves the server: `configured` with SMTP (`SMTP_URL`) or the e-mail API (`EMAILJS_*`);
 * otherwise every mail is only written as a file on the server (`DATA_DIR/outbox/*.eml`) and nobody gets it.
 */
export type MailStatus = { configured: boolean };

/** The answer of `POST /api/mail/test`: what happened, said in French. */
export type TestMailAnswer = { outcome: "sent" | "not-configured" | "failed"; message: string };

export const MAIL_MESSAGES = {
  /** Said wherever the dashboard would otherwise claim a mail was sent. */
  notConfigured:
    "L'envoi d'e-mails n'est pas configuré : les e-mails sont seulement écrits dans des fichiers sur le serveur, personne ne les reçoit.",
  testSent: (email: string) =>
    `E-mail de test envoyé à ${email}. Vérifiez qu'il est bien arrivé (pensez au dossier des indésirables).`,
  testFailed: (reason: string) => `L'e-mail de test n'a pas pu être envoyé : ${reason}`,
  tooMany: "Trop d'e-mails de test d'affilée. Réessayez dans une heure.",
  failed: "La demande n'a pas abouti. Réessayez dans un instant.",
} as const;

/**
 * Where an item of the checklist is set: a view of the dashboard (null: none), and the variables of the
 * server's configuration (`.env`, then a restart) that set it (empty: none).
 */
export type GoLiveSetting = { view: "shop" | "backups" | null; variables: string[] };

export type GoLiveItemId = "legal" | "contact" | "mail" | "backups" | "assistant";

/** One point of « Mise en ligne »: done or not, what it is, what is left (French), and where to set it. */
export type GoLiveItem = {
  id: GoLiveItemId;
  done: boolean;
  title: string;
  /** One French sentence: what is left to do, or what is in place. */
  detail: string;
  /** The labels of the fields still holding the site's example values (« Boutique »), when any. */
  missing: string[];
  setting: GoLiveSetting;
};

export type GoLiveChecklist = { items: GoLiveItem[]; remaining: number };
