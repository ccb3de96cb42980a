/**
 * Issue 29: the model finder's index, fetched from the server (`GET /api/catalogue/recherche`): the
 * current catalogue, with the prices edited in « Tarifs ». The answer carries an ETag and
 * `Cache-Control: no-cache`, so the browser revalidates it on each page (a 304 while nothing changed) and a
 * price edit reaches the finder at the next page load (docs/decisions/026).
 */
import { CATALOGUE_PATHS } from "#app/catalogue/api-paths.ts";
import type { SearchPayload } from "#app/catalogue/search.ts";

/** The finder's index. @throws Error when the server cannot be reached or answers another status than 200. */
export async function fetchSearchPayload(): Promise<SearchPayload> {
  const response = await fetch(CATALOGUE_PATHS.search, {
    credentials: "omit",
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`index du catalogue indisponible (${response.status})`);
  return (await response.json()) as SearchPayload;
}
