/**
 * Issue 29 « Boutique »: the browser's calls to `/api/shop/identity` (table in `protocol.ts`). Each resolves
 * with the data or the server's French message (and messages by field); never throws (offline: status 0).
 */
import type { ShopIdentityInput } from "#app/config/shop-schema.ts";
import { SHOP_IDENTITY_PATH, SHOP_MESSAGES, type ShopIdentityError, type ShopIdentityResponse } from "./protocol.ts";

export type ShopResult =
  | { ok: true; data: ShopIdentityResponse }
  | { ok: false; status: number; message: string; fieldErrors: Record<string, string> };

async function call(method: "GET" | "PUT", body?: ShopIdentityInput): Promise<ShopResult> {
  let response: Response;
  try {
    response = await fetch(SHOP_IDENTITY_PATH, {
      method,
      credentials: "same-origin",
      headers: body
        ? { Accept: "application/json", "Content-Type": "application/json" }
        : { Accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    return { ok: false, status: 0, message: SHOP_MESSAGES.failed, fieldErrors: {} };
  }
  const payload = (await response.json().catch(() => null)) as (ShopIdentityResponse & ShopIdentityError) | null;
  if (response.ok && payload?.identity) return { ok: true, data: payload };
  return {
    ok: false,
    status: response.status,
    message: typeof payload?.message === "string" ? payload.message : SHOP_MESSAGES.failed,
    fieldErrors: payload?.fieldErrors ?? {},
  };
}

/** The identity's current values and their date. */
export const getShopIdentity = () => call("GET");
/** Stores `values` as the shop's identity (the server validates them). */
export const saveShopIdentity = (values: ShopIdentityInput) => call("PUT", values);
