/**
 * Issue 18 §1 and §4: the booking form's address for a model and repair
 * (`/rendez-vous?modele=iphone-13&reparation=ecran`), one builder for the
 * brand pages' price lines, the finder's results and the assistant. Pure and
 * tiny: brand pages render it as plain links (no JavaScript until clicked).
 */

/** The booking page, pre-filled for `modelSlug` and `repairId` when given (a free diagnosis otherwise). */
export function bookingPath(modelSlug?: string | null, repairId?: string | null): string {
  if (!modelSlug) return "/rendez-vous";
  const query = `modele=${encodeURIComponent(modelSlug)}${repairId ? `&reparation=${encodeURIComponent(repairId)}` : ""}`;
  return `/rendez-vous?${query}`;
}
