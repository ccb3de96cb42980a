/**
 * Sales and after-sales promises (spec §9 "Business constants and limits"),
 * in one place: the sales hub, the product pages, the "Vente et réparation",
 * assistance and professional-solutions pages all read them from here, so a
 * change of warranty or delay is made once.
 */

export const salesPromises = {
  /** Spec §9: "Sales warranty up to 24 months" (sales hub, extended warranty block). */
  salesWarrantyMaxMonths: 24,
  /** Spec §9: "PCs up to 3 years with extension". */
  pcWarrantyMaxYearsWithExtension: 3,
  /** Spec §9: "smartphones 24 months extendable to 36". */
  smartphoneWarrantyMonths: 24,
  smartphoneWarrantyExtendedMonths: 36,
  /** Spec §9: "business support intervention within 4 hours". */
  businessInterventionHours: 4,
  /** Spec §9: "smartphone assistance within 24 hours". */
  smartphoneAssistanceHours: 24,
  /** Spec §9: "priority support 7 days a week". */
  prioritySupportDaysPerWeek: 7,
} as const;

/**
 * Repair promises (spec §1 and §9: free diagnosis, 12-month warranty, express
 * repair in 1 hour on site), cited by the sales pages' "professional repair"
 * and "fast service" cards.
 */
export const repairPromises = {
  warrantyMonths: 12,
  /** Repair catalogue §9: parts of the aftermarket kind (« compatibles ») carry 30 days. */
  aftermarketWarrantyDays: 30,
  expressRepairHours: 1,
  freeDiagnosis: true,
} as const;

/**
 * Issue 40, « Two promises contradict each other »: the repair warranty as every page states it (catalogue §9),
 * « 12 mois avec pièces d'origine, 30 jours avec pièces compatibles ».
 */
export const REPAIR_WARRANTY = `${repairPromises.warrantyMonths} mois avec pièces d'origine, ${repairPromises.aftermarketWarrantyDays} jours avec pièces compatibles`;

/** "24 mois" */
export function formatMonths(months: number): string {
  return `${months} mois`;
}

/** "3 ans" / "1 an" */
export function formatYears(years: number): string {
  return `${years} ${years > 1 ? "ans" : "an"}`;
}

/** "4h" (the site's style for hours, as in the opening hours "9h – 14h"). */
export function formatHours(hours: number): string {
  return `${hours}h`;
}

/** "7j/7" */
export function formatDaysPerWeek(days: number): string {
  return `${days}j/7`;
}
