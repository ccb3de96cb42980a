/**
 * Issue 18 §2, the mails of repair tracking, composed when a step is stored
 * and written to the outbox in the same transaction (delivered by the
 * worker, nothing lost while SMTP is down): one to the customer at each step
 * (status label, the shop's note, the quote when one waits, the warranty's
 * end once "Rendu", the tracking link), and one to the shop when the
 * customer answers a quote.
 */
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { trackingLink } from "#app/repairs/protocol.ts";
import {
  formatDay,
  formatEuros,
  formatTrackingCode,
  REPAIR_STATUS_LABELS,
  WARRANTY_MONTHS,
  type QuoteDecision,
  type RepairStatus,
} from "#app/repairs/statuses.ts";
import type { OutboxMail } from "#database/schema.ts";

export type RepairMailSettings = {
  /** The shop's inbox (`SHOP_EMAIL`): told of every quote decision. */
  shopEmail: string;
  /** Domain part of Message-IDs (the site's host name). */
  messageIdDomain: string;
  /** `PUBLIC_URL`: the tracking link's origin. */
  publicUrl: string;
  /** Issue 29: the shop's identity, read when a mail is composed (« Boutique »); the defaults when absent. */
  shop?: ShopSource;
};

/** What a mail says of the ticket. */
export type MailedTicket = {
  trackingCode: string;
  modelName: string;
  repairLabel: string;
  customerName: string;
  email: string;
  quoteDescription: string | null;
  quoteAmountEuros: number | null;
  /** The quote's answer: the question is mailed only while there is none. */
  quoteDecision: QuoteDecision | null;
  /** The amount of an earlier quote the customer accepted (migration 0025), which a new one replaces. */
  agreedPriceEuros: number | null;
};

/** One step as the customer is told it; `warrantyUntil` "YYYY-MM-DD" once "Rendu". */
export type MailedStep = { status: RepairStatus; note: string | null; warrantyUntil: string | null };

const outboxMail = (to: string, subject: string, text: string, settings: RepairMailSettings): OutboxMail => {
  const shop = settings.shop?.current() ?? defaultShop;
  return {
    to,
    subject,
    text,
    template: null,
    // The e-mail API transport sends these (same shape as the password-reset mail).
    templateParams: { to_email: to, from_name: shop.name, from_email: settings.shopEmail, message: text },
  };
};

/**
 * The customer's mail for `step` of `ticket` (issue 18 §2 "a mail goes out
 * at each step"): plain text in French, reply goes to the shop.
 */
export function composeStepMail(ticket: MailedTicket, step: MailedStep, settings: RepairMailSettings): OutboxMail {
  const shop = settings.shop?.current() ?? defaultShop;
  const code = formatTrackingCode(ticket.trackingCode);
  const label = REPAIR_STATUS_LABELS[step.status];
  const lines = [
    `Bonjour ${ticket.customerName},`,
    "",
    `Votre réparation ${ticket.modelName} (${ticket.repairLabel}) est maintenant : ${label}.`,
  ];
  if (step.note) lines.push("", `Message de l'atelier : ${step.note}`);
  if (step.status === "quote-pending" && ticket.quoteAmountEuros !== null && ticket.quoteDecision === null) {
    lines.push("", `Devis : ${ticket.quoteDescription ?? ""}`, `Montant : ${formatEuros(ticket.quoteAmountEuros)} TTC`);
    if (ticket.agreedPriceEuros !== null)
      lines.push(
        `Si vous l'acceptez, ce montant devient le prix total de la réparation, à la place de ${formatEuros(ticket.agreedPriceEuros)}.`,
      );
    lines.push("Acceptez-le ou refusez-le sur la page de suivi ci-dessous.");
  }
  if (step.status === "ready") lines.push("", "Vous pouvez venir le récupérer aux heures d'ouverture de l'atelier.");
  if (step.warrantyUntil) {
    lines.push(
      "",
      `Garantie : ${WARRANTY_MONTHS} mois, jusqu'au ${formatDay(step.warrantyUntil)} inclus (à partir de la remise de l'appareil).`,
    );
  }
  lines.push(
    "",
    `Suivre la réparation : ${trackingLink(settings.publicUrl, code)}`,
    `Code de suivi : ${code} (avec votre adresse e-mail ou votre numéro de téléphone)`,
    "",
    `${shop.name} — ${shop.phone.display}`,
    "",
  );
  const mail = outboxMail(ticket.email, `Votre réparation ${code} : ${label}`, lines.join("\n"), settings);
  return { ...mail, replyTo: { name: shop.name, address: settings.shopEmail } };
}

/** The shop's mail when the customer accepted or refused the quote on the tracking page. */
export function composeDecisionMail(
  ticket: MailedTicket,
  decision: QuoteDecision,
  settings: RepairMailSettings,
): OutboxMail {
  const code = formatTrackingCode(ticket.trackingCode);
  const verb = decision === "accepted" ? "accepté" : "refusé";
  const text = [
    `Le client a ${verb} le devis de la réparation ${code} sur la page de suivi.`,
    "",
    `Client : ${ticket.customerName} <${ticket.email}>`,
    `Appareil : ${ticket.modelName} (${ticket.repairLabel})`,
    `Devis : ${ticket.quoteDescription ?? ""}`,
    `Montant : ${ticket.quoteAmountEuros === null ? "—" : formatEuros(ticket.quoteAmountEuros)}`,
    "",
    decision === "accepted"
      ? "La réparation est passée « En réparation »."
      : "La réparation reste « Devis à valider » : choisissez la suite dans le tableau de bord.",
    "",
  ].join("\n");
  const mail = outboxMail(settings.shopEmail, `Devis ${verb} : réparation ${code}`, text, settings);
  return { ...mail, replyTo: { name: ticket.customerName, address: ticket.email } };
}
