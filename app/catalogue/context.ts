/**
 * Issue 29, « Prices in the dashboard »: the catalogue the route loaders read, through the router context.
 *
 * The server sets it on every render (`AppOptions.sharedContext` in `server/index.ts`: the catalogue
 * service's `current()`, the JSON seed with the staff's edits), for visitors' requests and the public pages
 * it renders for memory alike, so a page rendered again after an edit shows the new prices. Where no server
 * set it (route unit tests), loaders fall back to the seed (`./index.ts`), which is the tests' fixture.
 *
 * Server-side only (it imports the whole catalogue): loaders and `.server` modules.
 */
import { sharedContext, optionalContext } from "#app/utils/server-context.ts";
import type { Catalogue } from "./catalogue.ts";
import { catalogue as seedCatalogue } from "./index.ts";

/** The current catalogue (visible models only), set by the server for each render. */
export const catalogueContext = sharedContext<Catalogue>("catalogue");

/** The catalogue of this render: the server's current one, else the JSON seed. */
export function catalogueOf(context: { get<V>(key: import("react-router").RouterContext<V>): V }): Catalogue {
  return optionalContext(context, catalogueContext) ?? seedCatalogue;
}
