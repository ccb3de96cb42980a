/**
 * What the content pages' islands (issue 16, docs/decisions/013) share between their server
 * markup (`island.tsx`), the routes that use them, and the islands script (`main.ts`).
 */

/** The React components that hydrate alone on a content page. */
export type IslandName = "finder" | "hero-video";

/** `data-island="<name>"` marks an island's container; `data-props` holds its props as JSON. */
export const ISLAND_ATTRIBUTE = "data-island";

/** The `handle` of a route whose page loads the islands script instead of React Router's runtime. */
export const ISLANDS_HANDLE = { islands: true } as const;

/** True for the `handle` of a route that uses islands (`ISLANDS_HANDLE`). */
export function usesIslands(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { islands?: unknown }).islands === true;
}
