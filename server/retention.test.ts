/**
 * Issue 13 §11: the purges on both databases. Each test writes rows on both
 * sides of a period (dates set explicitly), runs `purgeExpired` and reads
 * back what is left. How the purge runs (in the server, `npm run purge`) is
 * `retention-runs.test.ts`.
 */
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RETENTION, formatRetentionDays } from "#app/config/retention.ts";
import type { AppDatabase } from "#database/connection.ts";
import {
  assistantMessages,
  authSessions,
  contactRequests,
  outboxMessages,
  quoteRequests,
  sessionEvents,
  sessions,
  signaling,
  users,
  verifications,
} from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, type TestDatabase } from "#tests/support/databases.ts";
import { ago, DEFAULT_POLICY, openRetentionDatabase, storedMail } from "#tests/support/retention.ts";
import { emlFileName } from "./outbox/transports.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import { purgeExpired, type PurgeCounts, type RetentionPolicy } from "./retention.ts";

const policy = DEFAULT_POLICY;

const mail = storedMail;
let sequence = 0;
const messageId = () => `<retention-${++sequence}@atelier.exemple>`;

describe("retention defaults", () => {
  it("are the periods the pages state, and the variables' defaults", () => {
    expect(policy).toMatchObject({
      requestDays: RETENTION.requestDays,
      sentMailDays: 30,
      sessionDays: 365,
      assistantDays: 365,
      signalingHours: 24,
    });
    expect(formatRetentionDays(RETENTION.requestDays)).toBe(`${RETENTION.requestYears} ans`);
    expect(formatRetentionDays(365)).toBe("1 an");
    expect(formatRetentionDays(30)).toBe("30 jours");
    expect(RETENTION.requestDays).toBeGreaterThanOrEqual(RETENTION.requestYears * 365);
  });
});

describe.each(DATABASE_KINDS)("retention purges on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let outboxDir: string;

  async function addUser(id: string) {
    await db
      .insert(users)
      .values({ id, name: `Client ${id}`, email: `${id}@exemple.fr` })
      .onConflictDoNothing();
  }
  async function addEml(id: string) {
    await writeFile(path.join(outboxDir, `${emlFileName(id)}.eml`), "Subject: test\r\n\r\nBonjour\r\n");
  }
  const purge = (overrides: Partial<RetentionPolicy> = {}): Promise<PurgeCounts> =>
    purgeExpired({ db, policy: { ...policy, ...overrides }, outboxFolder: outboxDir, pauseMs: 0 });

  beforeAll(async () => {
    ({ database, outboxDir } = await openRetentionDatabase(kind));
    db = database.db;
  });
  beforeEach(async () => {
    await emptyTables(db);
    await db.execute(sql.raw("truncate assistant_messages, auth_sessions, verifications, users cascade"));
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("deletes requests 3 years after the address's last contact, keeping newer ones, recent senders and pending mails", async () => {
    const old = ago(RETENTION.requestDays + 30);
    const [alone, recent, returning, pending] = await db
      .insert(contactRequests)
      .values([
        { name: "A", email: "alone@exemple.fr", message: "m", createdAt: old },
        { name: "B", email: "recent@exemple.fr", message: "m", createdAt: ago(10) },
        { name: "C", email: "returning@exemple.fr", message: "m", createdAt: old },
        { name: "D", email: "pending@exemple.fr", message: "m", createdAt: old },
      ])
      .returning();
    const quote = {
      companyName: "S",
      contactName: "E",
      phone: "01",
      description: "d",
      domain: "x",
      emailOption: "none",
      budget: "1",
    };
    const [oldQuote, laterQuote] = await db
      .insert(quoteRequests)
      .values([
        { ...quote, email: "quote@exemple.fr", createdAt: old },
        // The same person (any case) wrote again last year: their older contact request stays.
        { ...quote, email: "Returning@Exemple.fr", createdAt: ago(365) },
      ])
      .returning();
    await db.insert(outboxMessages).values({
      messageId: messageId(),
      requestKind: "contact",
      requestId: pending!.id,
      mail: mail("a@b.fr"),
      createdAt: old,
    });

    const counts = await purge();

    expect(counts).toMatchObject({ contactRequests: 1, quoteRequests: 1 });
    const left = (await db.select({ id: contactRequests.id }).from(contactRequests)).map((row) => row.id).sort();
    expect(left).toEqual([recent!.id, returning!.id, pending!.id].sort());
    expect(left).not.toContain(alone!.id);
    const quotesLeft = (await db.select({ id: quoteRequests.id }).from(quoteRequests)).map((row) => row.id);
    expect(quotesLeft).toEqual([laterQuote!.id]);
    expect(quotesLeft).not.toContain(oldQuote!.id);
    expect(await db.$count(outboxMessages)).toBe(1);
  });

  it("deletes delivered mails after 30 days with their .eml copies, never pending ones", async () => {
    const oldSent = messageId();
    const oldSentBySmtp = messageId();
    const newSent = messageId();
    const oldPending = messageId();
    await db.insert(outboxMessages).values([
      {
        messageId: oldSent,
        requestKind: "contact",
        mail: mail("a@b.fr"),
        status: "sent",
        sentAt: ago(40),
        createdAt: ago(40),
      },
      {
        messageId: oldSentBySmtp,
        requestKind: "quote",
        mail: mail("a@b.fr"),
        status: "sent",
        sentAt: ago(31),
        createdAt: ago(31),
      },
      {
        messageId: newSent,
        requestKind: "contact",
        mail: mail("a@b.fr"),
        status: "sent",
        sentAt: ago(5),
        createdAt: ago(40),
      },
      {
        messageId: oldPending,
        requestKind: "contact",
        mail: mail("a@b.fr"),
        status: "pending",
        attempts: 90,
        createdAt: ago(400),
      },
    ]);
    await addEml(oldSent);
    await addEml(newSent);
    const unrelated = path.join(outboxDir, "autre-fichier.eml");
    await writeFile(unrelated, "Subject: gardé\r\n\r\n");

    const counts = await purge();

    expect(counts).toMatchObject({ sentMails: 2, emlFiles: 1 });
    const left = (await db.select({ messageId: outboxMessages.messageId }).from(outboxMessages))
      .map((row) => row.messageId)
      .sort();
    expect(left).toEqual([newSent, oldPending].sort());
    const files = await readdir(outboxDir);
    expect(files).toContain(`${emlFileName(newSent)}.eml`);
    expect(files).toContain("autre-fichier.eml");
    expect(files).not.toContain(`${emlFileName(oldSent)}.eml`);
    await rm(path.join(outboxDir, `${emlFileName(newSent)}.eml`));
    await rm(unrelated);
  });

  it("deletes signaling of ended sessions and any row older than a day, and sessions with their events after a year", async () => {
    await addUser("client");
    const base = { userId: "client", userName: "Client", userEmail: "client@exemple.fr" };
    const [endedLastYear, endedRecently, connected, abandoned] = await db
      .insert(sessions)
      .values([
        {
          ...base,
          code: "AAAAA1",
          status: "disconnected",
          createdAt: ago(400),
          startTime: ago(400),
          endTime: ago(400),
        },
        {
          ...base,
          code: "AAAAA2",
          status: "disconnected",
          createdAt: ago(30),
          startTime: ago(30),
          endTime: ago(1 / 24),
        },
        { ...base, code: "AAAAA3", status: "connected", createdAt: ago(3), startTime: ago(3) },
        { ...base, code: "AAAAA4", status: "disconnected", createdAt: ago(400) },
      ])
      .returning();
    await db.insert(sessionEvents).values([
      { sessionId: endedLastYear!.id, actorId: "client", kind: "chat", text: "Bonjour", createdAt: ago(400) },
      { sessionId: endedLastYear!.id, actorId: null, kind: "ended", createdAt: ago(400) },
      { sessionId: endedRecently!.id, actorId: "client", kind: "chat", text: "Merci", createdAt: ago(30) },
    ]);
    const [leftover, fresh, stale] = await db
      .insert(signaling)
      .values([
        // A session ended before its signaling was deleted at the end (older servers).
        { sessionCode: endedRecently!.code, senderId: "client", data: '{"type":"candidate"}', createdAt: ago(1 / 24) },
        { sessionCode: connected!.code, senderId: "client", data: '{"type":"candidate"}', createdAt: ago(1 / 24) },
        { sessionCode: connected!.code, senderId: "client", data: '{"type":"offer"}', createdAt: ago(2) },
      ])
      .returning();

    const counts = await purge();

    expect(counts).toMatchObject({ signaling: 2, sessionEvents: 2, sessions: 2 });
    const signalingLeft = (await db.select({ id: signaling.id }).from(signaling)).map((row) => row.id);
    expect(signalingLeft).toEqual([fresh!.id]);
    expect(signalingLeft).not.toContain(leftover!.id);
    expect(signalingLeft).not.toContain(stale!.id);
    const sessionsLeft = (await db.select({ id: sessions.id }).from(sessions)).map((row) => row.id).sort();
    expect(sessionsLeft).toEqual([endedRecently!.id, connected!.id].sort());
    expect(sessionsLeft).not.toContain(abandoned!.id);
    const eventsLeft = await db.select({ text: sessionEvents.text }).from(sessionEvents);
    expect(eventsLeft).toEqual([{ text: "Merci" }]);
  });

  it("deletes an assistant conversation after a year of silence, and expired sign-in sessions and verifications", async () => {
    await addUser("silent");
    await addUser("active");
    await db.insert(assistantMessages).values([
      { userId: "silent", role: "user", content: "Quel prix pour un écran ?", createdAt: ago(500) },
      { userId: "silent", role: "assistant", content: "89 €", createdAt: ago(400) },
      { userId: "active", role: "user", content: "Bonjour", createdAt: ago(500) },
      { userId: "active", role: "assistant", content: "Bonjour !", createdAt: ago(2) },
    ]);
    await db.insert(authSessions).values([
      { id: "expired", token: "t1", userId: "active", expiresAt: ago(1) },
      { id: "valid", token: "t2", userId: "active", expiresAt: ago(-7) },
    ]);
    await db.insert(verifications).values([
      { id: "expired", identifier: "reset-password:x", value: "active", expiresAt: ago(1 / 24) },
      { id: "valid", identifier: "reset-password:y", value: "active", expiresAt: ago(-1 / 24) },
    ]);

    const counts = await purge();

    expect(counts).toMatchObject({ assistantMessages: 2, authSessions: 1, verifications: 1 });
    const conversation = await db.select({ userId: assistantMessages.userId }).from(assistantMessages);
    expect(conversation).toEqual([{ userId: "active" }, { userId: "active" }]);
    expect(await db.select({ id: authSessions.id }).from(authSessions)).toEqual([{ id: "valid" }]);
    expect(await db.select({ id: verifications.id }).from(verifications)).toEqual([{ id: "valid" }]);
  });

  // Issue 18: appointments a year after their date; repair tickets 3 years after closing, never while open.
  it("deletes appointments after their period and closed repair tickets after theirs, never an open ticket", async () => {
    await db.execute(sql.raw("truncate appointments, repair_tickets cascade"));
    const appointment = (daysAgo: number, name: string) => ({
      startsAt: ago(daysAgo),
      endsAt: new Date(ago(daysAgo).getTime() + 1_800_000),
      repairLabel: "Écran",
      customerName: name,
      email: "client@exemple.fr",
      phone: "0612345678",
    });
    await db
      .insert(appointments)
      .values([appointment(400, "Ancien"), appointment(300, "Récent"), appointment(-3, "À venir")]);
    const ticket = (code: string, status: "returned" | "cancelled" | "repairing", daysAgo: number) => ({
      trackingCode: code,
      modelName: "iPhone 13",
      repairLabel: "Écran",
      customerName: "Client",
      email: "client@exemple.fr",
      phone: "0612345678",
      status,
      createdAt: ago(daysAgo + 10),
      updatedAt: ago(daysAgo),
    });
    await db
      .insert(repairTickets)
      .values([
        ticket("AAAAAAAA", "returned", RETENTION.repairTicketDays + 1),
        ticket("BBBBBBBB", "cancelled", RETENTION.repairTicketDays + 1),
        ticket("CCCCCCCC", "returned", RETENTION.repairTicketDays - 30),
        ticket("DDDDDDDD", "repairing", RETENTION.repairTicketDays + 400),
      ]);

    const counts = await purge();

    expect(counts).toMatchObject({ appointments: 1, repairTickets: 2 });
    const left = await db.select({ name: appointments.customerName }).from(appointments).orderBy(appointments.startsAt);
    expect(left.map((row) => row.name)).toEqual(["Récent", "À venir"]);
    const tickets = await db
      .select({ code: repairTickets.trackingCode })
      .from(repairTickets)
      .orderBy(repairTickets.trackingCode);
    expect(tickets.map((row) => row.code)).toEqual(["CCCCCCCC", "DDDDDDDD"]);
  });

  it("deletes expired rate-limit counters and keeps running ones", async () => {
    const now = Date.now();
    await db.execute(sql`delete from rate_limits`);
    await db.execute(sql`insert into rate_limits (key, points, expire) values
      ('sign-in-ip:203.0.113.1', 3, ${now - 1_000}), ('sign-in-ip:203.0.113.2', 1, ${now + 60_000}), ('forever', 1, null)`);

    const counts = await purge();

    expect(counts.rateLimits).toBe(1);
    const left = (await db.execute(sql`select key from rate_limits order by key`)) as unknown as {
      rows: { key: string }[];
    };
    expect(left.rows.map((row) => row.key)).toEqual(["forever", "sign-in-ip:203.0.113.2"]);
  });

  it("works through a backlog larger than one batch, and deletes nothing twice", async () => {
    const rows = Array.from({ length: 7 }, (_, index) => ({
      name: "N",
      email: `lot${index}@exemple.fr`,
      message: "m",
      createdAt: ago(RETENTION.requestDays + 1),
    }));
    await db
      .insert(contactRequests)
      .values([...rows, { name: "N", email: "kept@exemple.fr", message: "m", createdAt: ago(1) }]);

    expect((await purge({ batchSize: 2 })).contactRequests).toBe(7);
    expect(await db.select({ email: contactRequests.email }).from(contactRequests)).toEqual([
      { email: "kept@exemple.fr" },
    ]);
    expect((await purge({ batchSize: 2 })).contactRequests).toBe(0);
  });

  it("follows RETENTION_* periods shorter than the defaults", async () => {
    const [request] = await db
      .insert(contactRequests)
      .values({ name: "N", email: "n@exemple.fr", message: "m", createdAt: ago(10) })
      .returning();
    expect((await purge({ requestDays: 30 })).contactRequests).toBe(0);
    expect((await purge({ requestDays: 9 })).contactRequests).toBe(1);
    expect(await db.select().from(contactRequests).where(eq(contactRequests.id, request!.id))).toEqual([]);
  });
});
