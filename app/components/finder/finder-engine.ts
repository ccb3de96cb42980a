/**
 * The model finder's search engine in the browser, loaded lazily by
 * `ModelFinder` (dynamic import) so neither the matcher nor the names weigh on
 * the page's first load. It reads the index pre-built at build time
 * (`virtual:catalogue-search-index`) and makes no network request.
 *
 * Timings are recorded as User Timing measures (cheap, nothing global):
 * - "finder:index-load": parsing the payload into a live index, once;
 * - "finder:search": each search, i.e. each keystroke (read by bench/finder.ts).
 */
import payload from "virtual:catalogue-search-index";
import {
  loadModelIndex,
  searchModels,
  type ModelSearchResult,
  type SearchModelsOptions,
} from "#app/catalogue/search.ts";

export const INDEX_LOAD_MEASURE = "finder:index-load";
export const SEARCH_MEASURE = "finder:search";

const loadStart = performance.now();
const index = loadModelIndex(payload);
performance.measure(INDEX_LOAD_MEASURE, { start: loadStart });

/** `searchModels` over the whole catalogue, timed as "finder:search". */
export function findModels(query: string, options?: SearchModelsOptions): ModelSearchResult {
  const start = performance.now();
  const result = searchModels(index, query, options);
  performance.measure(SEARCH_MEASURE, { start });
  return result;
}
