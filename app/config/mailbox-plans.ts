/**
 * Mailbox plans sold with the custom showcase websites (spec §2 "Web
 * development" and §9: 5 Go 3,99 €, 10 Go 4,99 €, 50 Go 9,99 € per month).
 * The /dev-web plan cards and the quote form (its mailbox option) read them.
 */
import { formatEuros } from "./shop.ts";

export type MailboxPlan = {
  /** Stable id, used in `/dev-web?offre=<id>#devis` to preselect the plan. */
  id: string;
  /** Storage per mailbox, in gigabytes (French "Go"). */
  capacityGb: number;
  /** Price per month in euros, shown with two decimals. */
  monthlyPriceEuros: number;
};

/** Spec §9, in ascending order. */
export const MAILBOX_PLANS = [
  { id: "mail-5", capacityGb: 5, monthlyPriceEuros: 3.99 },
  { id: "mail-10", capacityGb: 10, monthlyPriceEuros: 4.99 },
  { id: "mail-50", capacityGb: 50, monthlyPriceEuros: 9.99 },
] as const satisfies readonly MailboxPlan[];

export type MailboxPlanId = (typeof MAILBOX_PLANS)[number]["id"];

/** The plan with this id, or `undefined` (e.g. for an unknown `?offre=` value). */
export function findMailboxPlan(id: string | null | undefined): (typeof MAILBOX_PLANS)[number] | undefined {
  return MAILBOX_PLANS.find((plan) => plan.id === id);
}

/** "5 Go" */
export function formatCapacity(plan: Pick<MailboxPlan, "capacityGb">): string {
  return `${plan.capacityGb} Go`;
}

/** "3,99 €" (French format, two decimals, spec §9). */
export function formatMonthlyPrice(plan: Pick<MailboxPlan, "monthlyPriceEuros">): string {
  return formatEuros(plan.monthlyPriceEuros, 2);
}

/** "Boîte mail 5 Go – 3,99 € par mois" (plan cards and the quote e-mail's mailbox line). */
export function describeMailboxPlan(plan: Pick<MailboxPlan, "capacityGb" | "monthlyPriceEuros">): string {
  return `Boîte mail ${formatCapacity(plan)} – ${formatMonthlyPrice(plan)} par mois`;
}

/** Link that opens the quote section with this plan preselected. */
export function mailboxPlanQuoteHref(plan: Pick<MailboxPlan, "id">): string {
  return `/dev-web?offre=${encodeURIComponent(plan.id)}#devis`;
}
