/**
 * What the islands pages (issue 16, docs/decisions/013 and 029) share between their server markup
 * (`island.tsx`, the `data-enhance` attributes), the routes that use them, and the islands script
 * (`main.ts`).
 */

/** The React components that hydrate alone on a content page. */
export type IslandName = "finder" | "hero-video";

/**
 * Issue 30 (decision 029): plain DOM behaviours of the server-rendered forms, no React: the sending state and
 * the focus after a post (`form`), the day and time choice (`slots`), the plan named by a « Choisir » link
 * (`quote-plan`), the sign-in changes of other tabs (`sign-in`).
 */
export type EnhancerName = "form" | "slots" | "quote-plan" | "sign-in";

/** `data-island="<name>"` marks an island's container; `data-props` holds its props as JSON. */
export const ISLAND_ATTRIBUTE = "data-island";

/** `data-enhance="<name>"` marks the element an enhancer (`EnhancerName`) works on. */
export const ENHANCE_ATTRIBUTE = "data-enhance";

/** The `handle` of a route whose page loads the islands script instead of React Router's runtime. */
export const ISLANDS_HANDLE = { islands: true } as const;

/**
 * The `handle` of a route that uses islands only for some of its pages: `when` decides from the route's
 * loader data (e.g. /soft-assist: the signed-out forms are islands, the signed-in screens hydrate in full).
 */
export function islandsWhen<Data>(when: (data: Data | undefined) => boolean): { islands: (data: unknown) => boolean } {
  return { islands: (data) => when(data as Data | undefined) };
}

/** True for a route match whose `handle` is `ISLANDS_HANDLE`, or `islandsWhen(…)` true of its loader data. */
export function usesIslands(handle: unknown, data?: unknown): boolean {
  if (typeof handle !== "object" || handle === null) return false;
  const islands = (handle as { islands?: unknown }).islands;
  return islands === true || (typeof islands === "function" && (islands as (data: unknown) => boolean)(data) === true);
}
