/**
 * Issue 40: the counts shown on the dashboard's tabs, so a technician sees what waits for them without opening
 * each view. Shared by the server (`server/dashboard-counts.ts`, `server/dashboard-api.ts`) and the dashboard
 * (`ui/dashboard-tab.tsx`, `client/use-dashboard-counts.ts`). No imports: the dashboard's chunk stays small.
 *
 * `GET /api/dashboard/counts` (`session:history`, the dashboard's own permission): 200 `DashboardCounts`. Each
 * count is null when the caller may not open that view. The waiting customers are not in it: the dashboard
 * already holds the live queue (`queue:updated`), and counts it.
 */

/** Express pattern, relative to `/api`. */
export const DASHBOARD_COUNTS_ROUTE = "/dashboard/counts";
/** The browser's path. */
export const DASHBOARD_COUNTS_PATH = `/api${DASHBOARD_COUNTS_ROUTE}`;

export type DashboardCounts = {
  /** « À confirmer » appointments still to come (a past one can no longer be confirmed). */
  appointmentsToConfirm: number | null;
  /** Repair quotes sent and waiting for the customer's answer (« Devis à valider », no decision yet). */
  quotesAwaiting: number | null;
  /** Contact messages and quote requests not marked « Traité ». */
  untreatedRequests: number | null;
};

const countFormat = new Intl.NumberFormat("fr-FR");
const plural = (count: number, one: string, many: string) => `${countFormat.format(count)} ${count > 1 ? many : one}`;

/**
 * What each tab's count says to a screen reader (the badge shows the figure alone): « 2 clients en attente »,
 * « 1 à confirmer », « 3 devis en attente », « 4 à traiter ».
 */
export const COUNT_TEXTS = {
  waiting: (count: number) => plural(count, "client en attente", "clients en attente"),
  appointmentsToConfirm: (count: number) => `${countFormat.format(count)} à confirmer`,
  quotesAwaiting: (count: number) => `${countFormat.format(count)} devis en attente`,
  untreatedRequests: (count: number) => `${countFormat.format(count)} à traiter`,
} as const;

/** The badge's figure, fr-FR (« 1 234 »). */
export function formatCount(count: number): string {
  return countFormat.format(count);
}
