import express from "express";
import { sql } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactRequests, outboxMessages, quoteRequests } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  DOMAIN_REFUSAL,
  FORM_KEY_FIELD,
  FORM_KEY_MESSAGE,
  HONEYPOT_FIELD,
  LIMITS,
  REQUEST_MESSAGES,
} from "#app/requests/schemas.ts";
import { BODY_LIMIT_BYTES, createApiRouter } from "./api.ts";
import { createRequestService } from "./requests.ts";

const logger = pino({ level: "silent" });
const mail = { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple" };
const origin = { ip: "203.0.113.7" };

const contact = { name: "Léa Martin", email: "lea@exemple.fr", message: "Mon écran est fissuré." };
const quote = {
  companyName: "Boulangerie Durand",
  contactName: "Paul Durand",
  email: "paul@durand.fr",
  phone: "01 23 45 67 89",
  description: "Un site vitrine avec nos horaires.",
  domain: "boulangerie-durand",
  emailOption: "mail-10",
  budget: "1 500 €",
};

describe.each(DATABASE_KINDS)("contact and quote requests on %s", (kind) => {
  let database: TestDatabase;
  let stored: number;
  const service = (points = 100) =>
    createRequestService({
      db: database.db,
      logger,
      mail,
      rateLimit: { points, durationSeconds: 600 },
      onStored: () => void (stored += 1),
    });
  const counts = async () => ({
    contacts: await database.db.$count(contactRequests),
    quotes: await database.db.$count(quoteRequests),
    outbox: await database.db.$count(outboxMessages),
  });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
    stored = 0;
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("stores a contact message with its outbox mail to the shop, replying to the visitor", async () => {
    const result = await service().submitRequest("contact", contact, origin);
    expect(result.status).toBe("stored");
    const [row] = await database.db.select().from(contactRequests);
    expect(row).toMatchObject(contact);
    const [message] = await database.db.select().from(outboxMessages);
    expect(message).toMatchObject({ requestKind: "contact", requestId: row!.id, status: "pending", attempts: 0 });
    expect(message!.messageId).toMatch(/^<[0-9a-f-]{36}@atelier\.exemple>$/);
    expect(message!.mail).toMatchObject({
      to: "atelier@exemple.fr",
      replyTo: { name: "Léa Martin", address: "lea@exemple.fr" },
      template: "contact",
      templateParams: {
        to_email: "atelier@exemple.fr",
        from_name: "Léa Martin",
        from_email: "lea@exemple.fr",
        message: contact.message,
      },
    });
    expect(stored).toBe(1);
  });

  it.each([
    ["boulangerie-lemoine.fr", "boulangerie-lemoine.fr"],
    ["Kig-Ha-Farz.BZH", "kig-ha-farz.bzh"],
    ["café-dupont.fr", "café-dupont.fr"],
  ])("issue 40: stores « %s » with its own extension, and the mail says « %s »", async (typed, domain) => {
    const result = await service().submitRequest("quote", { ...quote, domain: typed }, origin);
    expect(result.status).toBe("stored");
    const [message] = await database.db.select().from(outboxMessages);
    expect(message!.mail.text).toContain(`Domaine souhaité: ${domain}\n`);
  });

  it("stores a quote request, the domain typed with or without its extension", async () => {
    const result = await service().submitRequest("quote", { ...quote, domain: "Boulangerie-Durand.com" }, origin);
    expect(result.status).toBe("stored");
    const [row] = await database.db.select().from(quoteRequests);
    expect(row).toMatchObject({ ...quote, domain: "boulangerie-durand" });
    const [message] = await database.db.select().from(outboxMessages);
    expect(message!.mail.text).toContain("Domaine souhaité: boulangerie-durand.com");
    expect(message!.mail.text).toContain("Option de messagerie: Boîte mail 10 Go – 4,99\u00a0€ par mois");
  });

  it("stores nothing when a field is missing or wrong, and names each field in French", async () => {
    const result = await service().submitRequest(
      "quote",
      { ...quote, email: "paul@", emailOption: "mail-1000", phone: "" },
      origin,
    );
    expect(result).toEqual({
      status: "invalid",
      fieldErrors: {
        email: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr.",
        emailOption: "Veuillez choisir une offre de boîte mail dans la liste.",
        phone: "Veuillez indiquer votre numéro de téléphone.",
      },
    });
    expect(await counts()).toEqual({ contacts: 0, quotes: 0, outbox: 0 });
    expect(stored).toBe(0);
  });

  it("refuses a filled honeypot without storing anything, before looking at the other fields", async () => {
    const result = await service().submitRequest(
      "contact",
      { ...contact, [HONEYPOT_FIELD]: "https://spam.example" },
      origin,
    );
    expect(result).toEqual({ status: "spam" });
    expect(
      await service().submitRequest("contact", { email: "pas-une-adresse", [HONEYPOT_FIELD]: "x" }, origin),
    ).toEqual({ status: "spam" });
    expect(await counts()).toEqual({ contacts: 0, quotes: 0, outbox: 0 });
  });

  it("limits accepted requests per IP address, and tells when to come back", async () => {
    const forms = service(2);
    expect((await forms.submitRequest("contact", contact, origin)).status).toBe("stored");
    expect((await forms.submitRequest("quote", quote, origin)).status).toBe("stored");
    const refused = await forms.submitRequest("contact", contact, origin);
    expect(refused.status).toBe("rate-limited");
    expect(refused.status === "rate-limited" && refused.retryAfterSeconds).toBeGreaterThan(500);
    // Another visitor is not affected.
    expect((await forms.submitRequest("contact", contact, { ip: "198.51.100.1" })).status).toBe("stored");
    expect(await counts()).toEqual({ contacts: 2, quotes: 1, outbox: 3 });
  });

  // Issue 28: "the same goes for the contact and quote forms": a retried POST is stored once.
  it("answers a submission sent again with its form key with the first one, stored once and not counted", async () => {
    const forms = service(1);
    const key = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    const first = await forms.submitRequest("contact", { ...contact, [FORM_KEY_FIELD]: key }, origin);
    expect(first.status).toBe("stored");
    for (let attempt = 0; attempt < 3; attempt++)
      expect(await forms.submitRequest("contact", { ...contact, [FORM_KEY_FIELD]: key }, origin)).toEqual(first);
    // Sent several times at once.
    const other = "a1b2c3d4-e5f6-4789-8abc-def012345678";
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => service().submitRequest("quote", { ...quote, [FORM_KEY_FIELD]: other }, origin)),
    );
    expect(new Set(parallel.map((result) => (result.status === "stored" ? result.id : result.status))).size).toBe(1);
    expect(await counts()).toEqual({ contacts: 1, quotes: 1, outbox: 2 });
    expect(stored).toBe(2);
    // The next message typed on the same page is a new request (refused here: the limit of 1 is spent).
    const next = await forms.submitRequest(
      "contact",
      { ...contact, message: "Autre chose", [FORM_KEY_FIELD]: key },
      origin,
    );
    expect(next.status).toBe("rate-limited");
    expect(await forms.submitRequest("contact", { ...contact, [FORM_KEY_FIELD]: "pas-une-clé" }, origin)).toEqual({
      status: "invalid",
      fieldErrors: { [FORM_KEY_FIELD]: FORM_KEY_MESSAGE },
    });
  });

  it("stores nothing at all when the outbox write fails: no request without its mail", async () => {
    await database.db.execute(
      sql.raw("alter table outbox_messages add constraint test_refuse_all check (false) not valid"),
    );
    try {
      const result = await service().submitRequest("contact", contact, origin);
      expect(result).toEqual({ status: "failed" });
      expect(await database.db.$count(contactRequests)).toBe(0);
      expect(stored).toBe(0);
    } finally {
      await database.db.execute(sql.raw("alter table outbox_messages drop constraint test_refuse_all"));
    }
  });

  describe("through the API", () => {
    const api = () => express().use("/api", createApiRouter(service()));

    it("answers 201 with the spec's success message", async () => {
      const response = await request(api()).post("/api/contact").send(contact);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ ok: true, message: "Message envoyé avec succès !" });
      const quoteResponse = await request(api()).post("/api/quote").type("form").send(quote);
      expect(quoteResponse.status).toBe(201);
      expect(quoteResponse.body.message).toBe("Merci ! Votre demande a été envoyée avec succès.");
      expect(await counts()).toEqual({ contacts: 1, quotes: 1, outbox: 2 });
    });

    it.each([
      [
        "missing fields",
        "/api/contact",
        "application/json",
        JSON.stringify({ name: "Léa" }),
        400,
        { email: "Veuillez indiquer votre adresse e-mail.", message: "Veuillez indiquer votre message." },
      ],
      [
        "a bad e-mail",
        "/api/contact",
        "application/json",
        JSON.stringify({ ...contact, email: "lea.exemple.fr" }),
        400,
        { email: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr." },
      ],
      [
        "an over-long message",
        "/api/contact",
        "application/json",
        JSON.stringify({ ...contact, message: "a".repeat(LIMITS.message + 1) }),
        400,
        { message: "Ce champ ne doit pas dépasser 5\u202f000 caractères." },
      ],
      [
        "wrong types",
        "/api/quote",
        "application/json",
        JSON.stringify({ ...quote, budget: 1500, phone: ["01"] }),
        400,
        { budget: "Ce champ doit être un texte.", phone: "Ce champ doit être un texte." },
      ],
      [
        "a domain that is not one",
        "/api/quote",
        "application/json",
        JSON.stringify({ ...quote, domain: "durand_et fils.f" }),
        400,
        { domain: DOMAIN_REFUSAL },
      ],
      [
        "a JSON array",
        "/api/contact",
        "application/json",
        "[1,2]",
        400,
        { _form: "Le contenu envoyé doit être un objet avec les champs du formulaire." },
      ],
    ])(
      "refuses %s with 400 and French messages per field, storing nothing",
      async (_case, path, type, body, status, errors) => {
        const response = await request(api()).post(path).set("Content-Type", type).send(body);
        expect(response.status).toBe(status);
        expect(response.body).toEqual({ ok: false, message: REQUEST_MESSAGES.invalid, errors });
        expect(await counts()).toEqual({ contacts: 0, quotes: 0, outbox: 0 });
      },
    );

    it.each([
      ["non-JSON", "application/json", "{name: Léa", 400, REQUEST_MESSAGES.badJson],
      [
        "an oversized body",
        "application/json",
        JSON.stringify({ ...contact, message: "é".repeat(BODY_LIMIT_BYTES) }),
        413,
        REQUEST_MESSAGES.tooLarge,
      ],
      ["plain text", "text/plain", "Bonjour", 415, REQUEST_MESSAGES.badContentType],
      [
        "a filled honeypot",
        "application/json",
        JSON.stringify({ ...contact, [HONEYPOT_FIELD]: "x" }),
        400,
        REQUEST_MESSAGES.spam,
      ],
    ])("refuses %s with a French message, storing nothing", async (_case, type, body, status, message) => {
      const response = await request(api()).post("/api/contact").set("Content-Type", type).send(body);
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ ok: false, message });
      expect(response.text).not.toMatch(/at .*\.(ts|js):\d+/);
      expect(await counts()).toEqual({ contacts: 0, quotes: 0, outbox: 0 });
    });

    it("answers 429 with Retry-After once the per-IP limit is reached", async () => {
      const app = express().use("/api", createApiRouter(service(1)));
      expect((await request(app).post("/api/contact").send(contact)).status).toBe(201);
      const refused = await request(app).post("/api/contact").send(contact);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(
        /^Trop de demandes ont été envoyées depuis votre connexion\. Réessayez dans \d+ minutes/,
      );
    });
  });
});
