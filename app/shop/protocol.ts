/**
 * Issue 29 « Boutique »: what the browser and the server exchange under `/api/shop/identity`, shared by
 * `server/shop/api.ts` and the dashboard view (`identity-view.tsx`). Pure: no server or browser APIs.
 *
 * | Method, path            | Who           | Body                  | Success |
 * |-------------------------|---------------|-----------------------|---------|
 * | GET /api/shop/identity  | `shop:manage` |                       | 200 `ShopIdentityResponse` |
 * | PUT /api/shop/identity  | `shop:manage` | `ShopIdentityInput`   | 200 `ShopIdentityResponse` |
 *
 * Refusals are `{ message, fieldErrors? }` in French: 400 invalid values (messages by field path, e.g.
 * "address.postalCode"), 401, 403, 413, 415, 429 (with `Retry-After`), 503 when the database fails.
 */
import type { ShopIdentityInput } from "#app/config/shop-schema.ts";

export const SHOP_IDENTITY_PATH = "/api/shop/identity";

/** The form's values and the date they were stored (ISO 8601; null: the defaults of app/config/shop.ts). */
export type ShopIdentityResponse = { identity: { values: ShopIdentityInput; updatedAt: string | null } };

/** A refusal: a French message, and French messages by field path when values were wrong. */
export type ShopIdentityError = { message: string; fieldErrors?: Record<string, string> };

export const SHOP_MESSAGES = {
  saved: "Les informations de la boutique sont enregistrées.",
  failed: "Les informations de la boutique n'ont pas pu être enregistrées. Réessayez dans un instant.",
  propagation: "Les pages du site, les mails et l'assistant reprennent ces informations en quelques secondes.",
} as const;
