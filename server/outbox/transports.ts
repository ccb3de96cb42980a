/**
 * Mail transports of the outbox (issue 4), chosen by `mailTransportConfig`:
 *
 * - `smtp`: nodemailer to `SMTP_URL`, from `MAIL_FROM`, to `SHOP_EMAIL`,
 *   reply-to the visitor, with the stored Message-ID;
 * - `emailjs`: the e-mail API of spec §7, one JSON POST to
 *   `<EMAILJS_API_URL>/api/v1.0/email/send` from the server; a 2xx answer is a
 *   success, anything else a failure (retried by the worker);
 * - `file`: each mail written as `<DATA_DIR>/outbox/<Message-ID>.eml`.
 *
 * `send` resolves when the mail is accepted and rejects with an `Error`
 * whose message is stored as the outbox row's `last_error`.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import type { OutboxMail } from "#database/schema.ts";
import type { Env } from "#server/env.ts";

/** Version field of the e-mail API's payload (the browser SDK the old site used). */
export const EMAILJS_LIB_VERSION = "4.4.1";
/** An unanswered delivery attempt is abandoned (and retried later) after this many ms. */
export const DELIVERY_TIMEOUT_MS = 20_000;

/** How outgoing mail leaves the server, derived from the environment (moved beside its transports by issue 14). */
export type MailTransportConfig =
  | { kind: "smtp"; url: string; from: string }
  | {
      kind: "emailjs";
      apiUrl: string;
      serviceId: string;
      templates: { contact: string; quote: string };
      publicKey: string;
      privateKey?: string;
    }
  | { kind: "file"; folder: string; from: string };

/**
 * SMTP if `SMTP_URL`, else the e-mail API if configured, else .eml files in `DATA_DIR/outbox`.
 * Without `MAIL_FROM`, `from` is the shop's name and inbox as they are at each delivery (issue 29: a getter
 * over `shop`, the current identity, so a change in « Boutique » applies to the next mail sent).
 */
export function mailTransportConfig(env: Env, shop?: ShopSource): MailTransportConfig {
  const sender = () => {
    if (env.MAIL_FROM) return env.MAIL_FROM;
    const identity = shop?.current() ?? defaultShop;
    return `"${identity.name.replace(/["\\]/g, "")}" <${env.SHOP_EMAIL ?? identity.email}>`;
  };
  const withSender = <T extends object>(config: T): T & { from: string } =>
    Object.defineProperty(config, "from", { get: sender, enumerable: true }) as T & { from: string };
  if (env.SMTP_URL) return withSender({ kind: "smtp" as const, url: env.SMTP_URL });
  if (env.EMAILJS_SERVICE_ID && env.EMAILJS_TEMPLATE_CONTACT && env.EMAILJS_TEMPLATE_QUOTE && env.EMAILJS_PUBLIC_KEY) {
    return {
      kind: "emailjs",
      apiUrl: env.EMAILJS_API_URL,
      serviceId: env.EMAILJS_SERVICE_ID,
      templates: { contact: env.EMAILJS_TEMPLATE_CONTACT, quote: env.EMAILJS_TEMPLATE_QUOTE },
      publicKey: env.EMAILJS_PUBLIC_KEY,
      privateKey: env.EMAILJS_PRIVATE_KEY,
    };
  }
  return withSender({ kind: "file" as const, folder: `${env.DATA_DIR.replace(/\/+$/, "")}/outbox` });
}

export type Delivery = { messageId: string; mail: OutboxMail; createdAt: Date };

export type MailTransport = {
  kind: MailTransportConfig["kind"];
  /** For logs: where mail goes (never a password). */
  describe: string;
  send(delivery: Delivery): Promise<void>;
  close(): void;
};

export function createMailTransport(config: MailTransportConfig): MailTransport {
  switch (config.kind) {
    case "smtp":
      return smtpTransport(config);
    case "emailjs":
      return emailjsTransport(config);
    case "file":
      return fileTransport(config);
  }
}

/** nodemailer message options shared by the SMTP and file transports. */
function messageOptions(from: string, { messageId, mail, createdAt }: Delivery): SendMailOptions {
  return {
    from,
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    text: mail.text,
    messageId,
    date: createdAt,
    // Issue 18: mail clients offer "add to calendar" for a text/calendar part; also attached as a file.
    ...(mail.calendar
      ? { icalEvent: { method: mail.calendar.method, filename: "rendez-vous.ics", content: mail.calendar.content } }
      : {}),
  };
}

function smtpTransport(config: Extract<MailTransportConfig, { kind: "smtp" }>): MailTransport {
  const transporter = nodemailer.createTransport({
    url: config.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: DELIVERY_TIMEOUT_MS,
  });
  const url = new URL(config.url);
  return {
    kind: "smtp",
    describe: `SMTP ${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ""}`,
    async send(delivery) {
      await transporter.sendMail(messageOptions(config.from, delivery));
    },
    close: () => transporter.close(),
  };
}

function emailjsTransport(config: Extract<MailTransportConfig, { kind: "emailjs" }>): MailTransport {
  const endpoint = `${config.apiUrl}/api/v1.0/email/send`;
  return {
    kind: "emailjs",
    describe: `API e-mail ${endpoint}`,
    async send({ mail }) {
      const payload = {
        lib_version: EMAILJS_LIB_VERSION,
        user_id: config.publicKey,
        service_id: config.serviceId,
        template_id: mail.template === "quote" ? config.templates.quote : config.templates.contact,
        template_params: mail.templateParams,
        ...(config.privateKey ? { accessToken: config.privateKey } : {}),
      };
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      // Spec §7: the body is only read as text; an ok status is the one success.
      const body = await response.text();
      if (!response.ok) throw new Error(`l'API e-mail a répondu ${response.status} : ${body.slice(0, 200)}`);
    },
    close: () => undefined,
  };
}

function fileTransport(config: Extract<MailTransportConfig, { kind: "file" }>): MailTransport {
  const folder = path.resolve(config.folder);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "file",
    describe: `fichiers .eml dans ${folder}`,
    async send(delivery) {
      const info = await composer.sendMail(messageOptions(config.from, delivery));
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, `${emlFileName(delivery.messageId)}.eml`);
      // Written then renamed: a reader never sees half a mail, and a retry overwrites the same file.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
    },
    close: () => composer.close(),
  };
}

/** `<uuid@host>` → `uuid@host`, with anything unsafe in a file name replaced. */
export function emlFileName(messageId: string): string {
  return messageId.replace(/^<|>$/g, "").replace(/[^A-Za-z0-9@._-]/g, "_");
}
