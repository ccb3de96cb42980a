/**
 * Issue 29, « Prices in the dashboard »: the browser's calls to `/api/catalogue/…` (table in
 * `app/catalogue/prices-protocol.ts`). Each resolves with the data or the server's French message; never
 * throws (offline: status 0 and `CATALOGUE_MESSAGES.failed`).
 */
import { CATALOGUE_PATHS } from "#app/catalogue/api-paths.ts";
import type {
  EditAnswer,
  HistoryEntry,
  ModelAddition,
  PriceEdit,
  PricesView,
  VisibilityEdit,
} from "#app/catalogue/prices-protocol.ts";

/** Kept here (not imported from the protocol) so this chunk does not carry zod. */
const FAILED = "Le catalogue n'a pas pu être enregistré. Réessayez dans un instant.";

export type CatalogueResult<T> =
  { ok: true; data: T } | { ok: false; status: number; message: string; fieldErrors?: Record<string, string> };

async function call<T>(method: "GET" | "POST" | "PUT", path: string, body?: unknown): Promise<CatalogueResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { Accept: "application/json" }
          : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: FAILED };
  }
  const payload = (await response.json().catch(() => null)) as
    (T & { message?: unknown; fieldErrors?: Record<string, string> }) | null;
  if (response.ok && payload) return { ok: true, data: payload };
  const message = typeof payload?.message === "string" ? payload.message : FAILED;
  return { ok: false, status: response.status, message, fieldErrors: payload?.fieldErrors };
}

export const getPrices = () => call<PricesView>("GET", CATALOGUE_PATHS.prices);
export const getHistory = () => call<{ entries: HistoryEntry[] }>("GET", CATALOGUE_PATHS.history);
export const savePrice = (edit: PriceEdit) => call<EditAnswer>("PUT", CATALOGUE_PATHS.price, edit);
export const addModel = (addition: ModelAddition) => call<EditAnswer>("POST", CATALOGUE_PATHS.models, addition);
export const setVisibility = (edit: VisibilityEdit) => call<EditAnswer>("POST", CATALOGUE_PATHS.visibility, edit);
