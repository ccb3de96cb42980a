/**
 * Issue 29 « Boutique »: the shop's identity as the manager set it (`shop_identity`, one row), kept in
 * memory so every page render, mail and assistant answer reads it synchronously with `current()`.
 *
 * - Loaded once by `createShopIdentityService` (no row: `defaultShop` of app/config/shop.ts; a stored value
 *   that no longer validates: the defaults too, with a warning naming nothing but the fields).
 * - `update(values, by)` validates with `ShopIdentitySchema`, stores, replaces `current()` and announces
 *   the change (`pageChanges.changed()`: every public page in memory is rendered again).
 * - Other server processes sharing the database learn of it by polling the row's `updated_at` every
 *   `pollMs` (2 s by default: one indexed single-row read, and it works on PGlite too), then reload and
 *   announce it to their own page cache. A failed poll is logged and tried again at the next tick.
 *
 * Logs say who changed the identity (user id), never the values.
 */
import { eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { shopIdentity } from "#database/schema-booking.ts";
import { defaultShop, type ShopIdentity, type ShopSource } from "#app/config/shop.ts";
import {
  identityFieldErrors,
  ShopIdentitySchema,
  toIdentityInput,
  type ShopIdentityInput,
} from "#app/config/shop-schema.ts";
import type { PageChanges } from "#server/page-changes.ts";

/** How often another process's change is looked for, ms (issue 29: pages follow « within seconds »). */
export const IDENTITY_POLL_MS = 2000;

/** What the « Boutique » form shows: the values to edit, and when and by whom they were last stored. */
export type StoredIdentity = {
  values: ShopIdentityInput;
  /** ISO 8601; null while the defaults apply. */
  updatedAt: string | null;
};

export type IdentityUpdate =
  | { ok: true; identity: ShopIdentity; stored: StoredIdentity }
  | { ok: false; status: 400; message: string; fieldErrors: Record<string, string> };

export type ShopIdentityService = ShopSource & {
  /** The values and date for the form (from memory). */
  stored(): StoredIdentity;
  /**
   * Validates `values` (untrusted: a JSON body), stores them as the identity, updates `current()` and
   * announces the change. @returns French field errors (400) when invalid. @throws on a database failure.
   */
  update(values: unknown, by: string): Promise<IdentityUpdate>;
  /** Reads the row's date now and reloads when another process changed it (the poll's step; tests call it). */
  poll(): Promise<void>;
  /** Stops polling. */
  close(): void;
};

export type ShopIdentityOptions = {
  db: AppDatabase;
  logger: Logger;
  /** Where changes are announced (the page cache); none in tools and tests that need no pages. */
  pageChanges?: PageChanges;
  /** Poll interval, ms; 0 turns polling off (one process, or a test driving `poll()`). */
  pollMs?: number;
};

/** The French message above the fields when a value is refused. */
export const IDENTITY_INVALID_MESSAGE = "Certaines informations sont invalides : corrigez les champs signalés.";

/**
 * Loads the stored identity and starts polling.
 * @throws when the database cannot be read at start (the server then does not start).
 */
export async function createShopIdentityService(options: ShopIdentityOptions): Promise<ShopIdentityService> {
  const { db, logger } = options;
  let identity: ShopIdentity = defaultShop;
  let updatedAt: Date | null = null;

  /** Parses a stored value; an invalid one falls back to the defaults (logged, values not logged). */
  const fromRow = (row: { identity: unknown; updatedAt: Date } | undefined) => {
    if (!row) return { identity: defaultShop, updatedAt: null };
    const parsed = ShopIdentitySchema.safeParse(row.identity);
    if (!parsed.success) {
      logger.warn(
        { fields: Object.keys(identityFieldErrors(parsed.error)) },
        "identité de la boutique enregistrée invalide : valeurs par défaut utilisées",
      );
      return { identity: defaultShop, updatedAt: row.updatedAt };
    }
    return { identity: parsed.data, updatedAt: row.updatedAt };
  };

  const load = async () => {
    const [row] = await db
      .select({ identity: shopIdentity.identity, updatedAt: shopIdentity.updatedAt })
      .from(shopIdentity)
      .where(eq(shopIdentity.id, 1));
    ({ identity, updatedAt } = fromRow(row));
  };
  await load();

  const stored = (): StoredIdentity => ({
    values: toIdentityInput(identity),
    updatedAt: updatedAt?.toISOString() ?? null,
  });

  let polling: Promise<void> | undefined;
  const poll = () =>
    (polling ??= (async () => {
      try {
        const [row] = await db
          .select({ updatedAt: shopIdentity.updatedAt })
          .from(shopIdentity)
          .where(eq(shopIdentity.id, 1));
        if ((row?.updatedAt.getTime() ?? null) === (updatedAt?.getTime() ?? null)) return;
        await load();
        logger.info("identité de la boutique modifiée par un autre serveur : pages mises à jour");
        options.pageChanges?.changed();
      } catch (error) {
        logger.warn({ err: error }, "identité de la boutique : lecture périodique impossible");
      } finally {
        polling = undefined;
      }
    })());

  const pollMs = options.pollMs ?? IDENTITY_POLL_MS;
  const timer = pollMs > 0 ? setInterval(() => void poll(), pollMs) : undefined;
  timer?.unref();

  return {
    current: () => identity,
    stored,
    poll,
    async update(values, by) {
      const parsed = ShopIdentitySchema.safeParse(values);
      if (!parsed.success) {
        return {
          ok: false,
          status: 400,
          message: IDENTITY_INVALID_MESSAGE,
          fieldErrors: identityFieldErrors(parsed.error),
        };
      }
      // What is stored is the form's shape of the parsed value (trimmed, days sorted), read back the same.
      const input = toIdentityInput(parsed.data);
      const [row] = await db
        .insert(shopIdentity)
        .values({ id: 1, identity: input, updatedBy: by, updatedAt: sql`clock_timestamp()` })
        .onConflictDoUpdate({
          target: shopIdentity.id,
          set: { identity: input, updatedBy: by, updatedAt: sql`clock_timestamp()` },
        })
        .returning({ updatedAt: shopIdentity.updatedAt });
      identity = parsed.data;
      updatedAt = row?.updatedAt ?? new Date();
      logger.info({ userId: by }, "identité de la boutique modifiée");
      options.pageChanges?.changed();
      return { ok: true, identity, stored: stored() };
    },
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
