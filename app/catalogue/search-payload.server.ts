/**
 * The model finder's payload for the whole catalogue (see `./search.ts`),
 * computed from the catalogue at import time. Build-time and test code only:
 * the `.server` suffix keeps it (and the catalogue data with zod) out of the
 * browser bundle; the browser gets the same data, pre-serialised, from the
 * virtual module `virtual:catalogue-search-index` (vite/catalogue-index-plugin.ts).
 */
import { brands } from "./index.ts";
import { buildModelDocuments, buildSearchPayload, type SearchPayload } from "./search.ts";

export const searchPayload: SearchPayload = buildSearchPayload(buildModelDocuments(brands));
