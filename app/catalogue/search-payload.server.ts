/**
 * The model finder's payload for the JSON seed catalogue (see `./search.ts`),
 * computed at import time. Test code only: the `.server` suffix keeps it (and
 * the catalogue data with zod) out of the browser bundle. At run time the
 * browser gets the payload of the current catalogue, with the prices edited in
 * « Tarifs », from the server (`GET /api/catalogue/recherche`, issue 29).
 */
import { brands } from "./index.ts";
import { buildModelDocuments, buildSearchPayload, type SearchPayload } from "./search.ts";

export const searchPayload: SearchPayload = buildSearchPayload(buildModelDocuments(brands));
