/** Types of the virtual modules of vite/*-plugin.ts. */
declare module "virtual:catalogue-search-index" {
  import type { SearchPayload } from "#app/catalogue/search.ts";

  /** The model finder's payload for the whole catalogue, built at build time (vite/catalogue-index-plugin.ts). */
  const payload: SearchPayload;
  export default payload;
}
