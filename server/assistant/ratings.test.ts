/**
 * Issue 17 §4, the ratings' rules (`ratings.ts`) on PGlite and PostgreSQL:
 * only one's own answers, one rating per answer, the exchange copied with it
 * and kept after "Nouvelle conversation", the staff list (filter, order,
 * counts, pages), the retention purge, the per-account limit, and database
 * failures as French refusals.
 */
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RATING_MESSAGES } from "#app/assistant/ratings-protocol.ts";
import { RatingsCursor } from "#app/assistant/rating-schemas.ts";
import type { AppDatabase } from "#database/connection.ts";
import { assistantMessages, users } from "#database/schema.ts";
import { assistantRatings } from "#database/schema-ratings.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { RETENTION } from "#app/config/retention.ts";
import { parseEnv } from "#server/env.ts";
import { purgeExpired, retentionPolicyFromEnv } from "#server/retention.ts";
import { createAssistantRatingService, type AssistantRatingService } from "./ratings.ts";
import { createAssistantService } from "./service.ts";

const logger = pino({ level: "silent" });
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const policy = retentionPolicyFromEnv(parseEnv({}));

/** A page's `nextBefore`, read as the API reads `avant`. */
const cursor = (value: string) => RatingsCursor.parse(value);

describe.each(DATABASE_KINDS)("assistant ratings on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let ratings: AssistantRatingService;

  /** Writes `count` exchanges (question, answer) for `userId`, a minute apart; resolves with their ids, oldest first. */
  async function converse(userId: string, count: number, startMinutesAgo = count * 2) {
    const rows = [];
    for (let index = 0; index < count; index++) {
      const at = (startMinutesAgo - index * 2) * MINUTE_MS;
      rows.push(
        { userId, role: "user" as const, content: `Question ${index + 1}`, createdAt: ago(at) },
        { userId, role: "assistant" as const, content: `Réponse ${index + 1}`, createdAt: ago(at - MINUTE_MS) },
      );
    }
    return db
      .insert(assistantMessages)
      .values(rows)
      .returning({ id: assistantMessages.id, role: assistantMessages.role });
  }
  const answerIds = (rows: { id: string; role: string }[]) =>
    rows.filter((row) => row.role === "assistant").map((row) => row.id);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  });
  beforeEach(async () => {
    await db.execute(sql.raw("truncate assistant_ratings, assistant_messages, users cascade"));
    for (const id of ["lea", "paul"])
      await db.insert(users).values({ id, name: `Client ${id}`, email: `${id}@exemple.fr` });
    ratings = createAssistantRatingService({ db, logger, rateLimit: { points: 1000, durationSeconds: 600 } });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("rates the account's own answer, and gives it back with the conversation", async () => {
    const [answer] = answerIds(await converse("lea", 1));
    const result = await ratings.rate("lea", answer!, { rating: "not-useful", comment: "Le prix est faux." });
    expect(result).toMatchObject({
      ok: true,
      rating: { messageId: answer, value: "not-useful", comment: "Le prix est faux." },
    });
    const mine = await ratings.ratingsOf("lea", [answer!]);
    expect(mine.ok && Object.fromEntries(mine.ratings)).toEqual({
      [answer!]: { value: "not-useful", comment: "Le prix est faux." },
    });
    // Another account asking for the same id sees nothing.
    const theirs = await ratings.ratingsOf("paul", [answer!]);
    expect(theirs.ok && theirs.ratings.size).toBe(0);
  });

  it("answers 404 « Réponse introuvable. » for another account's answer, a customer message or an unknown id", async () => {
    const rows = await converse("lea", 1);
    const question = rows.find((row) => row.role === "user")!.id;
    const [answer] = answerIds(rows);
    const refused = { ok: false, reason: "not-found", message: RATING_MESSAGES.notFound };
    expect(await ratings.rate("paul", answer!, { rating: "useful" })).toEqual(refused);
    expect(await ratings.rate("lea", question, { rating: "useful" })).toEqual(refused);
    expect(await ratings.rate("lea", "00000000-0000-4000-8000-000000000000", { rating: "useful" })).toEqual(refused);
    expect(await db.select().from(assistantRatings)).toEqual([]);
  });

  it("keeps one rating per answer: a new one updates it, an absent comment is kept, a blank one clears it", async () => {
    const [answer] = answerIds(await converse("lea", 1));
    const first = await ratings.rate("lea", answer!, { rating: "not-useful", comment: "Trop vague." });
    const second = await ratings.rate("lea", answer!, { rating: "useful" });
    expect(second).toMatchObject({ ok: true, rating: { value: "useful", comment: "Trop vague." } });
    if (!first.ok || !second.ok) throw new Error("avis refusé");
    expect(Date.parse(second.rating.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.rating.updatedAt));
    expect(await ratings.rate("lea", answer!, { rating: "useful", comment: "" })).toMatchObject({
      ok: true,
      rating: { value: "useful", comment: null },
    });
    const rows = await db.select().from(assistantRatings);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: "lea", messageId: answer, rating: "useful", comment: null });
  });

  it("copies up to 10 messages ending with the rated answer, kept after « Nouvelle conversation »", async () => {
    const rows = await converse("lea", 8);
    await converse("paul", 2);
    const answers = answerIds(rows);
    // The 6th answer: 12 messages up to it, the last 10 kept; the later ones are not part of what was rated.
    expect(await ratings.rate("lea", answers[5]!, { rating: "not-useful", comment: "Hors sujet." })).toMatchObject({
      ok: true,
    });
    const [stored] = await db.select().from(assistantRatings);
    expect(stored!.answer).toBe("Réponse 6");
    expect(stored!.conversation.map((message) => message.content)).toEqual([
      "Question 2",
      "Réponse 2",
      "Question 3",
      "Réponse 3",
      "Question 4",
      "Réponse 4",
      "Question 5",
      "Réponse 5",
      "Question 6",
      "Réponse 6",
    ]);
    expect(stored!.conversation.at(-1)).toMatchObject({ role: "assistant", content: "Réponse 6" });
    expect(Number.isNaN(Date.parse(stored!.conversation[0]!.createdAt))).toBe(false);

    const assistant = createAssistantService({
      db,
      logger,
      provider: null,
      rateLimit: { points: 10, durationSeconds: 60 },
    });
    expect(await assistant.clear("lea")).toEqual({ ok: true });
    const [kept] = await db.select().from(assistantRatings);
    expect(kept).toMatchObject({ messageId: null, answer: "Réponse 6", comment: "Hors sujet." });
    expect(kept!.conversation).toHaveLength(10);
    const list = await ratings.ratingsForStaff({ filter: "not-useful", limit: 20 });
    expect(list.ok && list.ratings.map((rating) => rating.answer)).toEqual(["Réponse 6"]);
    // The answer is gone: rating it again is a 404, and the conversation shows no rating.
    expect(await ratings.rate("lea", answers[5]!, { rating: "useful" })).toMatchObject({ reason: "not-found" });
  });

  it("lists ratings for staff newest first, « Pas utile » only or all, with the last 30 days' counts and pages", async () => {
    const answers = answerIds(await converse("lea", 6));
    const [paulAnswer] = answerIds(await converse("paul", 1));
    const values = ["not-useful", "useful", "not-useful", "not-useful", "useful", "not-useful"] as const;
    for (const [index, answer] of answers.entries()) {
      await ratings.rate("lea", answer, { rating: values[index]!, comment: `Avis ${index + 1}` });
      await db
        .update(assistantRatings)
        .set({ updatedAt: ago((10 - index) * MINUTE_MS) })
        .where(eq(assistantRatings.messageId, answer));
    }
    await ratings.rate("paul", paulAnswer!, { rating: "not-useful", comment: "Ancien" });
    await db
      .update(assistantRatings)
      .set({ updatedAt: ago(40 * DAY_MS) })
      .where(eq(assistantRatings.messageId, paulAnswer!));

    const notUseful = await ratings.ratingsForStaff({ filter: "not-useful", limit: 20 });
    if (!notUseful.ok) throw new Error(notUseful.message);
    expect(notUseful.ratings.map((rating) => rating.comment)).toEqual([
      "Avis 6",
      "Avis 4",
      "Avis 3",
      "Avis 1",
      "Ancien",
    ]);
    expect(notUseful.ratings.every((rating) => rating.value === "not-useful")).toBe(true);
    // The 40-day-old rating is listed but not counted.
    expect(notUseful.counts).toEqual({ useful: 2, notUseful: 4, days: 30 });
    expect(notUseful.nextBefore).toBeNull();
    expect(notUseful.ratings[0]).not.toHaveProperty("userId");

    const all = await ratings.ratingsForStaff({ filter: "all", limit: 20 });
    expect(all.ok && all.ratings.map((rating) => rating.comment)).toEqual([
      "Avis 6",
      "Avis 5",
      "Avis 4",
      "Avis 3",
      "Avis 2",
      "Avis 1",
      "Ancien",
    ]);

    const first = await ratings.ratingsForStaff({ filter: "all", limit: 3 });
    if (!first.ok || !first.nextBefore) throw new Error("pas de page suivante");
    expect(first.ratings.map((rating) => rating.comment)).toEqual(["Avis 6", "Avis 5", "Avis 4"]);
    const second = await ratings.ratingsForStaff({ filter: "all", limit: 3, before: cursor(first.nextBefore) });
    if (!second.ok || !second.nextBefore) throw new Error("pas de page suivante");
    expect(second.ratings.map((rating) => rating.comment)).toEqual(["Avis 3", "Avis 2", "Avis 1"]);
    const last = await ratings.ratingsForStaff({ filter: "all", limit: 3, before: cursor(second.nextBefore) });
    expect(last.ok && [last.ratings.map((rating) => rating.comment), last.nextBefore]).toEqual([["Ancien"], null]);
  });

  it("lists ratings changed in the same millisecond across pages, none skipped and none twice", async () => {
    const answers = answerIds(await converse("lea", 5));
    for (const [index, answer] of answers.entries()) {
      await ratings.rate("lea", answer, { rating: "not-useful", comment: `Avis ${index + 1}` });
    }
    // Microseconds too: the column keeps milliseconds, as the cursor does.
    await db.update(assistantRatings).set({ updatedAt: sql`'2026-11-24T06:00:00.123456Z'::timestamptz` });
    const seen: string[] = [];
    let before: string | null | undefined;
    do {
      const page = await ratings.ratingsForStaff({
        filter: "all",
        limit: 2,
        before: before ? cursor(before) : undefined,
      });
      if (!page.ok) throw new Error(page.message);
      seen.push(...page.ratings.map((rating) => rating.comment ?? ""));
      before = page.nextBefore;
    } while (before);
    expect(seen.sort()).toEqual(["Avis 1", "Avis 2", "Avis 3", "Avis 4", "Avis 5"]);
  });

  it("are purged once unchanged for the assistant's retention period, with or without their conversation", async () => {
    const [answer] = answerIds(await converse("lea", 1));
    const rating = (messageId: string | null, days: number, comment: string) => ({
      messageId,
      userId: "lea",
      rating: "not-useful" as const,
      comment,
      answer: "Réponse 1",
      conversation: [{ role: "assistant" as const, content: "Réponse 1", createdAt: new Date().toISOString() }],
      createdAt: ago((days + 10) * DAY_MS),
      updatedAt: ago(days * DAY_MS),
    });
    const period = RETENTION.assistantInactiveDays;
    await db
      .insert(assistantRatings)
      .values([
        rating(null, period + 1, "ancien, conversation effacée"),
        rating(null, period - 1, "récent, conversation effacée"),
        rating(answer!, 1, "récent"),
      ]);
    const purge = (assistantDays: number) =>
      purgeExpired({ db, policy: { ...policy, assistantDays }, outboxFolder: database.dataDir, pauseMs: 0 });

    expect((await purge(period)).assistantRatings).toBe(1);
    const left = await db.select({ comment: assistantRatings.comment }).from(assistantRatings);
    expect(left.map((row) => row.comment).sort()).toEqual(["récent", "récent, conversation effacée"]);
    // RETENTION_ASSISTANT_DAYS shorter: the recent ones go too.
    expect((await purge(0)).assistantRatings).toBe(2);
  });

  it("limits ratings per account, with the wait in seconds", async () => {
    const limited = createAssistantRatingService({ db, logger, rateLimit: { points: 2, durationSeconds: 600 } });
    const [answer] = answerIds(await converse("lea", 1));
    expect(await limited.rate("lea", answer!, { rating: "useful" })).toMatchObject({ ok: true });
    expect(await limited.rate("lea", answer!, { rating: "not-useful" })).toMatchObject({ ok: true });
    const refused = await limited.rate("lea", answer!, { rating: "useful" });
    expect(refused).toMatchObject({ ok: false, reason: "rate-limited", message: RATING_MESSAGES.tooManyRatings });
    expect(!refused.ok && refused.retryAfterSeconds).toBeGreaterThan(0);
    // Another account has its own count.
    const [paulAnswer] = answerIds(await converse("paul", 1));
    expect(await limited.rate("paul", paulAnswer!, { rating: "useful" })).toMatchObject({ ok: true });
  });
});

describe("assistant ratings when the database fails", () => {
  const broken = new Proxy({} as AppDatabase, {
    get: () => () => {
      throw new Error("base de données injoignable");
    },
  });
  const ratings = createAssistantRatingService({ db: broken, logger });

  it("answer French refusals instead of throwing", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    expect(await ratings.rate("lea", id, { rating: "useful" })).toEqual({
      ok: false,
      reason: "failed",
      message: RATING_MESSAGES.saveFailed,
    });
    expect(await ratings.ratingsOf("lea", [id])).toMatchObject({ ok: false, message: RATING_MESSAGES.listFailed });
    expect(await ratings.ratingsForStaff({ filter: "all", limit: 20 })).toMatchObject({
      ok: false,
      message: RATING_MESSAGES.listFailed,
    });
  });
});
