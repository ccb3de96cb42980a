/**
 * Issue 29 « Boutique »: the identity service on a real database (PGlite, and PostgreSQL when available):
 * the defaults while nothing is stored, an update seen at once by `current()` and announced to the page
 * cache, a stored value that no longer validates falling back to the defaults, and a second server
 * process (a second service on the same database) learning of the change at its next poll.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultShop } from "#app/config/shop.ts";
import { toIdentityInput } from "#app/config/shop-schema.ts";
import { users } from "#database/schema.ts";
import { shopIdentity } from "#database/schema-booking.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createPageChanges } from "#server/page-changes.ts";
import { createShopIdentityService, IDENTITY_INVALID_MESSAGE } from "./identity.ts";

const logger = pino({ level: "silent" });
const withPhone = (phone: string) => ({ ...toIdentityInput(defaultShop), phone });

describe.each(DATABASE_KINDS)("shop identity service on %s", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database.dispose());
  beforeEach(async () => {
    await database.db.execute(sql.raw("truncate shop_identity, users cascade"));
    await database.db.insert(users).values({ id: "gerant", name: "Gérant", email: "gerant@exemple.fr" });
  });

  /** A service polling only when told (`poll()`), with the paths it announced. */
  async function service() {
    const pageChanges = createPageChanges();
    const announced: (readonly string[] | undefined)[] = [];
    pageChanges.subscribe((paths) => announced.push(paths));
    const identity = await createShopIdentityService({ db: database.db, logger, pageChanges, pollMs: 0 });
    return { identity, announced };
  }

  it("gives the defaults of app/config/shop.ts while nothing is stored", async () => {
    const { identity } = await service();
    expect(identity.current()).toEqual(defaultShop);
    expect(identity.stored()).toEqual({ values: toIdentityInput(defaultShop), updatedAt: null });
  });

  it("stores a valid change, gives it at once and announces it to every page", async () => {
    const { identity, announced } = await service();
    const outcome = await identity.update(withPhone("+33 4 78 00 00 01"), "gerant");
    expect(outcome.ok).toBe(true);
    expect(identity.current().phone).toEqual({ display: "04 78 00 00 01", e164: "+33478000001" });
    expect(identity.stored().values.phone).toBe("04 78 00 00 01");
    expect(identity.stored().updatedAt).not.toBeNull();
    expect(announced).toEqual([undefined]);
    const rows = await database.db.select({ updatedBy: shopIdentity.updatedBy }).from(shopIdentity);
    expect(rows).toEqual([{ updatedBy: "gerant" }]);
    // Its own poll sees its own change: nothing announced again.
    await identity.poll();
    expect(announced).toHaveLength(1);
  });

  it("refuses invalid values with French messages, storing and announcing nothing", async () => {
    const { identity, announced } = await service();
    const outcome = await identity.update({ ...withPhone("12"), email: "non" }, "gerant");
    expect(outcome).toEqual({
      ok: false,
      status: 400,
      message: IDENTITY_INVALID_MESSAGE,
      fieldErrors: {
        phone: "Numéro de téléphone français attendu, par exemple 01 23 45 67 89.",
        email: "Adresse e-mail invalide, par exemple contact@exemple.fr.",
      },
    });
    expect(identity.current()).toEqual(defaultShop);
    expect(announced).toEqual([]);
    expect(await database.db.select().from(shopIdentity)).toHaveLength(0);
  });

  it("falls back to the defaults when the stored value no longer validates", async () => {
    await database.db.execute(sql`insert into shop_identity (id, identity) values (1, '{"name": 42}'::jsonb)`);
    const { identity } = await service();
    expect(identity.current()).toEqual(defaultShop);
  });

  it("lets another server process learn of a change at its next poll, and announce it", async () => {
    const first = await service();
    const second = await service();
    await first.identity.update(withPhone("05 56 00 00 02"), "gerant");
    expect(second.identity.current().phone.display).toBe("01 99 00 12 34");
    await second.identity.poll();
    expect(second.identity.current().phone.display).toBe("05 56 00 00 02");
    expect(second.announced).toEqual([undefined]);
    await second.identity.poll();
    expect(second.announced).toHaveLength(1);
  });

  it("polls by itself every pollMs", async () => {
    const first = await service();
    const pageChanges = createPageChanges();
    let announced = 0;
    pageChanges.subscribe(() => announced++);
    const polling = await createShopIdentityService({ db: database.db, logger, pageChanges, pollMs: 20 });
    try {
      await first.identity.update(withPhone("02 40 00 00 03"), "gerant");
      await expect.poll(() => polling.current().phone.display).toBe("02 40 00 00 03");
      expect(announced).toBe(1);
    } finally {
      polling.close();
    }
  });
});
