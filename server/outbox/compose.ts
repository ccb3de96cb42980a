/**
 * The mails announcing a contact message or a quote request (spec §7
 * "E-mail sending"): one `OutboxMail` holds both the plain-text mail (SMTP and
 * .eml transports) and the e-mail API's template parameters, composed once
 * when the request is accepted.
 */
import type { OutboxMail } from "#database/schema.ts";
import { fullDomain, type ContactInput, type QuoteInput } from "#app/requests/schemas.ts";
import { describeMailboxPlan, findMailboxPlan } from "#app/config/mailbox-plans.ts";

export type MailSettings = {
  /** The shop's inbox (`SHOP_EMAIL`): recipient of every request. */
  shopEmail: string;
  /** Domain part of Message-IDs (the site's host name). */
  messageIdDomain: string;
};

/** Spec §7 contact template_params: to_email, from_name, from_email, message. */
export function composeContactMail(request: ContactInput, settings: MailSettings): OutboxMail {
  return {
    to: settings.shopEmail,
    replyTo: { name: request.name, address: request.email },
    subject: `Nouveau message de ${request.name} (site web)`,
    text: [`Nom: ${request.name}`, `E-mail: ${request.email}`, "", "Message:", request.message, ""].join("\n"),
    template: "contact",
    templateParams: {
      to_email: settings.shopEmail,
      from_name: request.name,
      from_email: request.email,
      message: request.message,
    },
  };
}

/**
 * The quote's labelled lines (issue 4): Description, "Domaine souhaité:
 * <name>.com", "Option de messagerie: <plan with price>", Budget. They form
 * the e-mail API's `message` parameter and the end of the plain-text mail.
 */
export function quoteDetailLines(request: QuoteInput): string[] {
  const plan = findMailboxPlan(request.emailOption);
  return [
    `Description: ${request.description}`,
    `Domaine souhaité: ${fullDomain(request.domain)}`,
    `Option de messagerie: ${plan ? describeMailboxPlan(plan) : request.emailOption}`,
    `Budget: ${request.budget}`,
  ];
}

/** Spec §7 quote template_params: to_email, from_name (contact), from_email, company, phone, message. */
export function composeQuoteMail(request: QuoteInput, settings: MailSettings): OutboxMail {
  const details = quoteDetailLines(request);
  return {
    to: settings.shopEmail,
    replyTo: { name: request.contactName, address: request.email },
    subject: `Demande de devis : ${request.companyName}`,
    text: [
      `Entreprise: ${request.companyName}`,
      `Contact: ${request.contactName}`,
      `E-mail: ${request.email}`,
      `Téléphone: ${request.phone}`,
      ...details,
      "",
    ].join("\n"),
    template: "quote",
    templateParams: {
      to_email: settings.shopEmail,
      from_name: request.contactName,
      from_email: request.email,
      company: request.companyName,
      phone: request.phone,
      message: details.join("\n"),
    },
  };
}
