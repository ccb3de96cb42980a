/**
 * Issue 17 §4 over HTTP (`ratings-api.ts` in the assistant's router), on
 * PGlite and PostgreSQL: `PUT /api/assistant/messages/:id/rating` for the
 * account's own answers (401, 400, 404, 429 with Retry-After, 200), the
 * rating in the conversation's GET, and `GET /api/assistant/ratings` for
 * technicians only (403 for customers, 400 for a bad query).
 */
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATING_MESSAGES, type RatingsListResponse } from "#app/assistant/ratings-protocol.ts";
import type { AssistantMessage } from "#app/assistant/protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { assistantMessages } from "#database/schema.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createAssistantRatingService } from "./ratings.ts";
import { createAssistantService } from "./service.ts";

const logger = pino({ level: "silent" });

describe.each(DATABASE_KINDS)("assistant ratings API on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let customer: TestAccount;
  let other: TestAccount;
  let technician: TestAccount;

  /** A question and its answer in `account`'s conversation; resolves with the answer's id. */
  async function answerOf(account: TestAccount, question = "Combien coûte un écran ?"): Promise<string> {
    const [, answer] = await database.db
      .insert(assistantMessages)
      .values([
        { userId: account.id, role: "user", content: question },
        { userId: account.id, role: "assistant", content: `Réponse à « ${question} »` },
      ])
      .returning({ id: assistantMessages.id });
    return answer!.id;
  }
  const put = (cookie: string | undefined, id: string, body: unknown) => {
    const call = request(server.url).put(`/api/assistant/messages/${id}/rating`).set("Origin", server.url);
    return (cookie ? call.set("Cookie", cookie) : call).send(body as object);
  };
  const list = (cookie: string | undefined, query = "") => {
    const call = request(server.url).get(`/api/assistant/ratings${query}`);
    return cookie ? call.set("Cookie", cookie) : call;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database, {
      assistant: createAssistantService({
        db: database.db,
        logger,
        provider: null,
        rateLimit: { points: 100, durationSeconds: 600 },
      }),
      ratings: createAssistantRatingService({
        db: database.db,
        logger,
        rateLimit: { points: 6, durationSeconds: 600 },
      }),
    });
    customer = await createAccount(server, database, "customer", false, `-${kind}`);
    other = await createAccount(server, database, "otherCustomer", false, `-${kind}`);
    technician = await createAccount(server, database, "technician", true, `-${kind}`);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("stores the customer's rating, shows it in their conversation, and lists it for technicians", async () => {
    const answer = await answerOf(customer, "Le prix d'une batterie d'iPhone 12 ?");
    const rated = await put(customer.cookie, answer, { rating: "not-useful", comment: "  Prix faux.  " });
    expect(rated.status).toBe(200);
    expect(rated.headers["cache-control"]).toBe("no-store");
    expect(rated.body).toEqual({
      rating: { messageId: answer, value: "not-useful", comment: "Prix faux.", updatedAt: expect.any(String) },
    });

    const conversation = await request(server.url).get("/api/assistant/messages").set("Cookie", customer.cookie);
    const messages = conversation.body.messages as AssistantMessage[];
    expect(messages.find((message) => message.id === answer)?.rating).toEqual({
      value: "not-useful",
      comment: "Prix faux.",
    });
    expect(messages.filter((message) => message.role === "user").every((message) => !("rating" in message))).toBe(true);

    const staff = await list(technician.cookie);
    expect(staff.status).toBe(200);
    const body = staff.body as RatingsListResponse;
    expect(body.ratings[0]).toMatchObject({ value: "not-useful", comment: "Prix faux." });
    expect(body.ratings[0]!.conversation.map((message) => message.content)).toEqual([
      "Le prix d'une batterie d'iPhone 12 ?",
      "Réponse à « Le prix d'une batterie d'iPhone 12 ? »",
    ]);
    expect(body.counts).toMatchObject({ notUseful: 1, days: 30 });
    // No account is named in the staff list.
    expect(JSON.stringify(body)).not.toContain(customer.email);
    expect((await list(technician.cookie, "?avis=tous&avant=2999-01-01T00:00:00.000Z")).status).toBe(200);
    // A page's cursor: the instant and the last rating's id.
    const cursor = `2999-01-01T00:00:00.000Z_${crypto.randomUUID()}`;
    expect((await list(technician.cookie, `?avis=tous&avant=${cursor}`)).status).toBe(200);
  });

  it("answers 401 signed out, 403 to customers on the staff list", async () => {
    const answer = await answerOf(customer);
    expect(await put(undefined, answer, { rating: "useful" })).toMatchObject({
      status: 401,
      body: { message: SESSION_MESSAGES.notSignedIn },
    });
    expect(await list(undefined)).toMatchObject({ status: 401 });
    expect(await list(customer.cookie)).toMatchObject({
      status: 403,
      body: { message: SESSION_MESSAGES.technicianOnly },
    });
  });

  it("answers 404 for another account's answer or a question, never saying which", async () => {
    const theirs = await answerOf(other);
    const [question] = await database.db
      .insert(assistantMessages)
      .values({ userId: customer.id, role: "user", content: "Bonjour" })
      .returning({ id: assistantMessages.id });
    for (const id of [theirs, question!.id, "00000000-0000-4000-8000-000000000000"]) {
      expect(await put(customer.cookie, id, { rating: "useful" })).toMatchObject({
        status: 404,
        body: { message: RATING_MESSAGES.notFound },
      });
    }
  });

  it("answers 400 in French for a malformed id, body or query", async () => {
    const answer = await answerOf(customer);
    const cases: [string, unknown, string][] = [
      ["pas-un-uuid", { rating: "useful" }, RATING_MESSAGES.badId],
      [answer, { rating: "bof" }, RATING_MESSAGES.badRating],
      [answer, {}, RATING_MESSAGES.badRating],
      [answer, { rating: "useful", comment: "x".repeat(1001) }, RATING_MESSAGES.commentTooLong],
      [answer, { rating: "useful", comment: 42 }, RATING_MESSAGES.badComment],
      [answer, { rating: "useful", comment: "a\u0000b" }, "Ce texte contient des caractères invisibles"],
      [answer, [1, 2], SESSION_MESSAGES.badBody],
    ];
    for (const [id, body, message] of cases) {
      const answered = await put(customer.cookie, id, body);
      expect(answered.status, JSON.stringify(body)).toBe(400);
      expect(answered.body.message).toContain(message);
    }
    const notJson = await request(server.url)
      .put(`/api/assistant/messages/${answer}/rating`)
      .set("Origin", server.url)
      .set("Cookie", customer.cookie)
      .set("Content-Type", "application/json")
      .send("{pas du json");
    expect(notJson).toMatchObject({ status: 400, body: { message: SESSION_MESSAGES.badJson } });
    for (const [query, message] of [
      ["?avis=nul", RATING_MESSAGES.badFilter],
      ["?avis=tous&avis=pas-utile", RATING_MESSAGES.badFilter],
      ["?avant=hier", RATING_MESSAGES.badBefore],
      ["?avant=2025-02-31T10:00:00Z", RATING_MESSAGES.badBefore],
      ["?avant=1", RATING_MESSAGES.badBefore],
      ["?avant=2025-02-03T10:00:00Z_pas-un-id", RATING_MESSAGES.badBefore],
      ["?avant=2025-02-03T10:00:00Z__", RATING_MESSAGES.badBefore],
      [`?avant=${"9".repeat(200)}`, RATING_MESSAGES.badBefore],
      ["?avant=a&avant=b", RATING_MESSAGES.badBefore],
    ]) {
      expect(await list(technician.cookie, query!), query).toMatchObject({ status: 400, body: { message } });
    }
  });

  it("limits each account's ratings: 429 with Retry-After", async () => {
    const answer = await answerOf(other);
    let answered;
    for (let attempt = 0; attempt < 8; attempt++) {
      answered = await put(other.cookie, answer, { rating: attempt % 2 ? "useful" : "not-useful" });
      if (answered.status === 429) break;
      expect(answered.status).toBe(200);
    }
    expect(answered).toMatchObject({ status: 429, body: { message: RATING_MESSAGES.tooManyRatings } });
    expect(Number(answered!.headers["retry-after"])).toBeGreaterThan(0);
  });
});
