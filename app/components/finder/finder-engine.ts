/**
 * The model finder's search engine in the browser, loaded lazily by
 * `ModelFinder` (dynamic import) so neither the matcher nor the names weigh on
 * the page's first load. Issue 29: the index is no longer built into this
 * chunk; `ModelFinder` fetches it from the server (`GET /api/catalogue/recherche`,
 * the current catalogue with the staff's price edits, ETag and `no-cache`) in
 * parallel with this chunk, and hands it to `createFinderEngine`
 * (docs/decisions/026).
 *
 * Timings are recorded as User Timing measures (cheap, nothing global):
 * - "finder:index-load": parsing the payload into a live index, once;
 * - "finder:search": each search, i.e. each keystroke (read by bench/finder.ts).
 */
import {
  loadModelIndex,
  searchModels,
  type ModelSearchResult,
  type SearchModelsOptions,
  type SearchPayload,
} from "#app/catalogue/search.ts";

export const INDEX_LOAD_MEASURE = "finder:index-load";
export const SEARCH_MEASURE = "finder:search";

/** A search engine over one index. */
export type FinderEngine = {
  /** `searchModels` over the whole catalogue, timed as "finder:search". */
  findModels(query: string, options?: SearchModelsOptions): ModelSearchResult;
};

/** The engine over `payload` (the server's `SearchPayload`), its loading timed as "finder:index-load". */
export function createFinderEngine(payload: SearchPayload): FinderEngine {
  const loadStart = performance.now();
  const index = loadModelIndex(payload);
  performance.measure(INDEX_LOAD_MEASURE, { start: loadStart });
  return {
    findModels(query, options) {
      const start = performance.now();
      const result = searchModels(index, query, options);
      performance.measure(SEARCH_MEASURE, { start });
      return result;
    },
  };
}
