/**
 * Issue 29 « Boutique »: `GET/PUT /api/shop/identity` through HTTP with real accounts (PGlite): 401 signed
 * out, 403 to technicians and customers, 200 to the manager (`shop:manage`), 400 with French messages per
 * field for wrong values, and 4xx (never 5xx) for bad bytes, bodies too large and other content types.
 */
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultShop } from "#app/config/shop.ts";
import { toIdentityInput } from "#app/config/shop-schema.ts";
import { users } from "#database/schema.ts";
import { shopIdentity } from "#database/schema-booking.ts";
import { roleFields } from "#server/access.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createShopRouter, SHOP_BODY_LIMIT_BYTES } from "./api.ts";
import { createShopIdentityService, type ShopIdentityService } from "./identity.ts";

const PATH = "/api/shop/identity";
let database: TestDatabase;
let server: RemoteSupportServer;
let identity: ShopIdentityService;
let app: express.Express;
let manager: TestAccount;
let technician: TestAccount;
let customer: TestAccount;

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database);
  identity = await createShopIdentityService({ db: database.db, logger: pino({ level: "silent" }), pollMs: 0 });
  app = express();
  app.use("/api", createShopRouter({ auth: server.auth, identity }));
  manager = await createAccount(server, database, "customer", false, "-gerant");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
  technician = await createAccount(server, database, "technician", true);
  customer = await createAccount(server, database, "otherCustomer", false);
}, 60_000);

afterAll(async () => {
  identity?.close();
  await server?.close();
  await database?.dispose();
});

const put = (cookie: string) => request(app).put(PATH).set("Cookie", cookie);

describe("who may read and change the shop's identity", () => {
  it("answers 401 signed out and 403 to technicians and customers", async () => {
    expect((await request(app).get(PATH)).status).toBe(401);
    expect((await request(app).put(PATH).send(toIdentityInput(defaultShop))).status).toBe(401);
    for (const account of [technician, customer]) {
      const read = await request(app).get(PATH).set("Cookie", account.cookie);
      expect(read.status).toBe(403);
      expect(read.body.message).toMatch(/gérant/);
      expect((await put(account.cookie).send(toIdentityInput(defaultShop))).status).toBe(403);
    }
    expect(identity.stored().updatedAt).toBeNull();
  });

  it("gives the manager the form's values, then stores a change with who made it", async () => {
    const read = await request(app).get(PATH).set("Cookie", manager.cookie);
    expect(read.status).toBe(200);
    expect(read.headers["cache-control"]).toBe("no-store");
    expect(read.body).toEqual({ identity: { values: toIdentityInput(defaultShop), updatedAt: null } });

    const changed = await put(manager.cookie).send({ ...read.body.identity.values, phone: "0472000004" });
    expect(changed.status).toBe(200);
    expect(changed.body.identity.values.phone).toBe("04 72 00 00 04");
    expect(identity.current().phone.e164).toBe("+33472000004");
    const rows = await database.db.select({ updatedBy: shopIdentity.updatedBy }).from(shopIdentity);
    expect(rows).toEqual([{ updatedBy: manager.id }]);
  });
});

describe("what the manager sends", () => {
  it("answers wrong values with 400 and French messages by field", async () => {
    const values = { ...toIdentityInput(defaultShop), address: { ...defaultShop.address, postalCode: "ABCDE" } };
    const refused = await put(manager.cookie).send(values);
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({
      "address.postalCode": "Code postal à 5 chiffres attendu, par exemple 75011.",
    });
  });

  it("answers bad bytes, other shapes, other types and large bodies with a 4xx, never a 5xx", async () => {
    const raw = (body: string, type = "application/json") => put(manager.cookie).set("Content-Type", type).send(body);
    const answers = await Promise.all([
      raw("{"),
      raw("null"),
      raw("[]"),
      raw('"texte"'),
      raw('{"name":"\\u0000"}'),
      raw("\u00ff\u00fe"),
      raw("name=x", "application/x-www-form-urlencoded"),
      raw("x".repeat(SHOP_BODY_LIMIT_BYTES + 1)),
      raw(JSON.stringify({ ...toIdentityInput(defaultShop), name: "x".repeat(SHOP_BODY_LIMIT_BYTES) })),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(typeof answer.body.message).toBe("string");
    }
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 415, 413, 413]);
  });
});
