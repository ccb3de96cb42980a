/**
 * Issue 29: the catalogue API's paths (table in `./prices-protocol.ts`), apart from it so that the model
 * finder's island can name its index's address without bundling zod.
 */
export const CATALOGUE_PATHS = {
  search: "/api/catalogue/recherche",
  prices: "/api/catalogue/tarifs",
  history: "/api/catalogue/historique",
  price: "/api/catalogue/tarifs/prix",
  models: "/api/catalogue/tarifs/modeles",
  visibility: "/api/catalogue/tarifs/visibilite",
} as const;
