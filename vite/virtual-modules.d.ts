/** Types of the virtual modules of vite/*-plugin.ts. */
declare module "virtual:catalogue-search-index" {
  import type { SearchPayload } from "#app/catalogue/search.ts";

  /** The model finder's payload for the whole catalogue, built at build time (vite/catalogue-index-plugin.ts). */
  const payload: SearchPayload;
  export default payload;
}

declare module "virtual:islands-entry" {
  /** URL of the content pages' islands script (vite/islands-plugin.ts), e.g. "/assets/islands-Ab12.js". */
  const url: string;
  export default url;
}
