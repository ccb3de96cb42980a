/**
 * Issue 40, mail honesty: whether mail leaves the server, and the manager's test mail (« Boutique » →
 * « Envoyer un e-mail de test »).
 *
 * - `configured`: the transport is SMTP (`SMTP_URL`) or the e-mail API (`EMAILJS_*`). With neither, the
 *   outbox writes every mail as a `.eml` file in `DATA_DIR/outbox` (`transports.ts`): kept, but nobody
 *   receives it, so the dashboard must never say « envoyé ».
 * - `sendTest(to)`: one mail straight through the transport (not the outbox: the manager waits for the
 *   answer), at most `DELIVERY_TIMEOUT_MS`. Its outcome is French; a refusal names what failed from the
 *   error's code and the mail server's own reply, with `SMTP_URL`'s user and password taken out.
 */
import type { Logger } from "pino";
import { MAIL_MESSAGES, type TestMailAnswer } from "#app/go-live/protocol.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import type { OutboxMail } from "#database/schema.ts";
import { newMessageId } from "#server/requests.ts";
import type { MailTransport } from "./transports.ts";

export type MailService = {
  /** Whether mail leaves the server (SMTP or the e-mail API); false: only written as files. */
  readonly configured: boolean;
  /** Sends the test mail to `to`; never throws. */
  sendTest(to: { name: string; email: string }): Promise<TestMailAnswer>;
};

export type MailServiceOptions = {
  transport: MailTransport;
  logger: Logger;
  /** PUBLIC_URL: named in the mail, and its host in the Message-ID. */
  publicUrl: string;
  shop?: ShopSource;
  /** `SMTP_URL`, whose user and password never reach an answer. */
  smtpUrl?: string;
};

/** What the nodemailer error codes mean, for a shop owner (French, no jargon beyond the variable to check). */
const SMTP_REASONS: Record<string, string> = {
  EAUTH: "le serveur d'envoi a refusé l'identifiant ou le mot de passe (vérifiez SMTP_URL).",
  ECONNECTION: "le serveur d'envoi est injoignable (vérifiez l'adresse et le port de SMTP_URL, et le réseau).",
  EDNS: "l'adresse du serveur d'envoi est introuvable (vérifiez le nom de serveur dans SMTP_URL).",
  ETIMEDOUT: "le serveur d'envoi n'a pas répondu à temps.",
  ETLS: "la connexion chiffrée au serveur d'envoi a échoué (smtps:// va avec le port 465, smtp:// avec 587 ou 25).",
  ESOCKET: "la connexion au serveur d'envoi a été interrompue (vérifiez le port et smtp:// ou smtps:// dans SMTP_URL).",
  EENVELOPE: "le serveur d'envoi a refusé l'adresse de l'expéditeur ou du destinataire (vérifiez MAIL_FROM).",
  EMESSAGE: "le serveur d'envoi a refusé le message.",
  EPROTOCOL: "le serveur d'envoi a répondu de façon inattendue.",
};
/** Node's own network codes, as nodemailer passes them on. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "ECONNECTION",
  ECONNRESET: "ESOCKET",
  ENOTFOUND: "EDNS",
  EAI_AGAIN: "EDNS",
  EHOSTUNREACH: "ECONNECTION",
};

/**
 * The answer to « Envoyer un e-mail de test » without mail configured. Kept on the server: it names the server's
 * variables, which the browser's code never contains (the go-live checklist sends them the same way).
 */
const TEST_NOT_CONFIGURED =
  "L'envoi d'e-mails n'est pas configuré : aucun e-mail de test n'a été envoyé. Renseignez SMTP_URL (ou les variables EMAILJS_*) dans la configuration du serveur, puis redémarrez-le.";

/**
 * The French reason of a failed delivery: what the code means, then the mail server's reply (or the
 * error's message) in parentheses, at most 200 characters, without `SMTP_URL`'s user and password.
 */
export function describeSendError(error: unknown, smtpUrl?: string): string {
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    response?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };
  const detail = typeof fields.response === "string" ? fields.response : String(fields.message ?? error);
  // nodemailer says ESOCKET for a refused connection; Node's own code, in the message, says which.
  const network = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)\b/.exec(detail)?.[1];
  const rawCode = network ?? (typeof fields.code === "string" ? fields.code : "");
  const code = NETWORK_CODES[rawCode] ?? rawCode;
  const reason = SMTP_REASONS[code] ?? "le serveur d'envoi a refusé l'envoi.";
  return `${reason} (réponse : ${withoutSecrets(detail, smtpUrl).slice(0, 200)})`;
}

/** `text` with the user, the password and any `scheme://user:password@` of `smtpUrl` replaced. */
function withoutSecrets(text: string, smtpUrl?: string): string {
  let clean = text.replace(/(\w+:\/\/)[^\s/@]+@/g, "$1…@");
  if (smtpUrl) {
    const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
    for (const secret of [url?.password, url?.username].map((part) => (part ? decodeURIComponent(part) : "")))
      if (secret.length >= 3) clean = clean.split(secret).join("…");
  }
  return clean.replace(/\s+/g, " ").trim();
}

export function createMailService(options: MailServiceOptions): MailService {
  const { transport, logger } = options;
  const configured = transport.kind !== "file";

  function testMail(to: { name: string; email: string }): OutboxMail {
    const shop = options.shop?.current() ?? defaultShop;
    const text = [
      `Bonjour ${to.name},`,
      "",
      `Cet e-mail de test a été envoyé depuis le tableau de bord du site ${options.publicUrl} (« Boutique », « Envoyer un e-mail de test »).`,
      "Vous le recevez : l'envoi des e-mails fonctionne. Les invitations, les confirmations de rendez-vous et les liens de réinitialisation partiront de la même façon.",
      "",
    ].join("\n");
    return {
      to: to.email,
      subject: `${shop.name} : e-mail de test`,
      text,
      template: null,
      templateParams: { to_email: to.email, from_name: shop.name, from_email: shop.email, message: text },
    };
  }

  return {
    configured,
    async sendTest(to) {
      if (!configured) return { outcome: "not-configured", message: TEST_NOT_CONFIGURED };
      const messageId = newMessageId(new URL(options.publicUrl).hostname);
      try {
        await transport.send({ messageId, mail: testMail(to), createdAt: new Date() });
      } catch (error) {
        const reason = describeSendError(error, options.smtpUrl);
        // The reason only: it names no address and no secret.
        logger.warn({ transport: transport.describe, reason }, "e-mail de test refusé");
        return { outcome: "failed", message: MAIL_MESSAGES.testFailed(reason) };
      }
      logger.info({ transport: transport.describe, messageId }, "e-mail de test envoyé");
      return { outcome: "sent", message: MAIL_MESSAGES.testSent(to.email) };
    },
  };
}
