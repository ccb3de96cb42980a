/**
 * Issue 29, « Prices in the dashboard »: `/api/catalogue` over HTTP (PGlite, better-auth): the finder's
 * index for anyone, with an ETag answered 304 until a price changes; the « Tarifs » routes 401 signed out,
 * 403 for a technician, 200 for the manager; bad bytes 4xx (never 5xx); a valid edit 200 in French.
 */
import { createServer, type Server } from "node:http";
import { eq } from "drizzle-orm";
import express from "express";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchPayload } from "#app/catalogue/search.ts";
import { users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { createAuth } from "#server/auth.ts";
import { authHandlers } from "#server/auth-http.ts";
import { parseEnv } from "#server/env.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { freePort } from "#tests/support/postgres.ts";
import { signIn, TEST_AUTH_SECRET } from "#tests/support/remote-support.ts";
import { createCatalogueRouter } from "./api.ts";
import { createCatalogueService, type CatalogueService } from "./service.ts";

let database: TestDatabase;
let catalogue: CatalogueService;
let httpServer: Server;
let url: string;
const cookies = { manager: "", technician: "" };

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: url,
    DATA_DIR: database.dataDir,
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    AUTH_SIGN_IN_LIMIT: "1000",
    LOG_LEVEL: "silent",
  });
  const logger = pino({ level: "silent" });
  const auth = createAuth({ db: database.db, env, logger, secret: TEST_AUTH_SECRET });
  catalogue = await createCatalogueService({ db: database.db, logger });
  const app = express();
  app.all("/api/auth/{*splat}", authHandlers(auth, { publicUrl: url }));
  app.use("/api", createCatalogueRouter({ auth, catalogue }));
  httpServer = createServer(app);
  await new Promise<void>((resolve) => httpServer.listen(port, "127.0.0.1", resolve));
  for (const role of ["manager", "technician"] as const) {
    const email = `${role}@exemple.fr`;
    const { user } = await auth.api.signUpEmail({
      body: { name: `Compte ${role}`, email, password: "motdepasse-test" },
    });
    await database.db.update(users).set(roleFields(role)).where(eq(users.id, user.id));
    cookies[role] = await signIn(url, email, "motdepasse-test");
  }
}, 60_000);

afterAll(async () => {
  httpServer?.closeAllConnections();
  await new Promise<void>((resolve) => (httpServer ? httpServer.close(() => resolve()) : resolve()));
  await catalogue?.stop();
  await database?.dispose();
});

const edit = { brand: "playstation", model: "ps5", repair: "port-hdmi", euros: 123, estimate: false };
const ps5Hdmi = (payload: SearchPayload) => {
  // `prices` pairs a row of `repairs` with its euros.
  const prices = payload.models.find(([, , slug]) => slug === "ps5")![3];
  const row = payload.repairs.findIndex(([id]) => id === "port-hdmi");
  for (let i = 0; i < prices.length; i += 2) if (prices[i] === row) return prices[i + 1];
  return undefined;
};

describe("GET /api/catalogue/recherche (the finder's index)", () => {
  it("answers anyone with the current catalogue, an ETag and no-cache; 304 while unchanged", async () => {
    const first = await request(url).get("/api/catalogue/recherche").expect(200);
    expect(first.headers["cache-control"]).toBe("no-cache");
    expect(first.headers["content-type"]).toMatch(/^application\/json/);
    const etag = first.headers.etag as string;
    await request(url).get("/api/catalogue/recherche").set("If-None-Match", etag).expect(304);
    expect(ps5Hdmi(first.body as SearchPayload)).not.toBe(123);

    await request(url).put("/api/catalogue/tarifs/prix").set("Cookie", cookies.manager).send(edit).expect(200);
    const second = await request(url).get("/api/catalogue/recherche").set("If-None-Match", etag).expect(200);
    expect(second.headers.etag).not.toBe(etag);
    expect(ps5Hdmi(second.body as SearchPayload)).toBe(123);
  });
});

describe("the « Tarifs » routes", () => {
  it("answer 401 signed out and 403 to a technician (the manager's permission shop:manage)", async () => {
    const signedOut = await request(url).get("/api/catalogue/tarifs").expect(401);
    expect(signedOut.body).toEqual({ message: "Utilisateur non connecté" });
    const technician = await request(url).get("/api/catalogue/tarifs").set("Cookie", cookies.technician).expect(403);
    expect(technician.body).toEqual({ message: "Réservé au gérant de l'atelier." });
    await request(url).put("/api/catalogue/tarifs/prix").set("Cookie", cookies.technician).send(edit).expect(403);
    await request(url).get("/api/catalogue/historique").set("Cookie", cookies.technician).expect(403);
  });

  it("give the manager every brand, model and price, and the history", async () => {
    const view = await request(url).get("/api/catalogue/tarifs").set("Cookie", cookies.manager).expect(200);
    expect(view.headers["cache-control"]).toBe("no-store");
    expect(view.body.brands).toHaveLength(catalogue.current().brands.length);
    const history = await request(url).get("/api/catalogue/historique").set("Cookie", cookies.manager).expect(200);
    expect(history.body.entries[0]).toMatchObject({ who: "Compte manager", kind: "price", model: "PS5" });
  });

  it("answer 200 with a French message for a valid edit, and 4xx for bad input, never 5xx", async () => {
    const ok = await request(url)
      .put("/api/catalogue/tarifs/prix")
      .set("Cookie", cookies.manager)
      .send({ ...edit, euros: 124 })
      .expect(200);
    expect(ok.body.message).toMatch(/^Prix enregistré : PS5, Port HDMI à partir de 124\s€ \(prix de la boutique\)\.$/u);
    const cases: [string, string, number][] = [
      ["application/json", "{not json", 400],
      ["application/json", JSON.stringify({ ...edit, euros: -3 }), 400],
      ["application/json", JSON.stringify({ ...edit, extra: 1 }), 400],
      ["application/json", JSON.stringify([1, 2]), 400],
      ["application/json", "null", 400],
      ["text/plain", "euros=12", 415],
      ["application/json", JSON.stringify({ ...edit, name: "x".repeat(10_000) }), 413],
      ["application/json", "\u0000\u00ff\ud800", 400],
    ];
    for (const [type, body, status] of cases) {
      const answer = await request(url)
        .put("/api/catalogue/tarifs/prix")
        .set("Cookie", cookies.manager)
        .set("Content-Type", type)
        .send(body);
      expect(answer.status, body.slice(0, 40)).toBe(status);
      expect(typeof answer.body.message).toBe("string");
    }
    const invalid = await request(url)
      .post("/api/catalogue/tarifs/modeles")
      .set("Cookie", cookies.manager)
      .send({ brand: "xbox", series: "inconnue", name: "Xbox Mini", prices: { alimentation: 50 } })
      .expect(404);
    expect(invalid.body.message).toBe("Cette série n'existe pas dans cette marque.");
  });
});
