/**
 * Issue 18 §4 « Parler à un technicien », on PGlite and PostgreSQL: the
 * session asked from the assistant carries the latest 20 messages of the
 * customer's stored conversation, follows the rules of any new session (the
 * open one given back, the per-account limit), and only its customer and the
 * technician who joined it may read the conversation. Its contents never
 * reach the logs; it goes with the session's row.
 */
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SessionConversationMessage } from "#app/assistant/session-conversation.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { assistantMessages, sessions } from "#database/schema.ts";
import type { Caller } from "#server/access.ts";
import { createSessionService } from "#server/remote-support/sessions.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  accountRole,
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";

const SECRET = "mon mot de passe Wi-Fi est Tournesol-42";

describe.each(DATABASE_KINDS)("« Parler à un technicien » on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;

  const as = (who: Role | "anonymous", method: "get" | "post", path: string) => {
    const call = request(server.url)[method](path);
    return who === "anonymous" ? call : call.set("Cookie", accounts[who].cookie);
  };
  const callerOf = (account: TestAccount): Caller => ({
    userId: account.id,
    name: account.name,
    email: account.email,
    role: accountRole(account),
    authSessionId: `navigateur-${account.role}`,
  });

  /** Stores `count` alternating messages for `account`, a second apart, the oldest first. */
  async function chat(account: TestAccount, count: number, text = (index: number) => `message ${index}`) {
    const start = Date.now() - count * 1000;
    await database.db.insert(assistantMessages).values(
      Array.from({ length: count }, (_, index) => ({
        userId: account.id,
        role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
        content: text(index),
        createdAt: new Date(start + index * 1000),
      })),
    );
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
    await database.db.delete(assistantMessages);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("attaches the latest 20 messages, oldest first, to a new session shown with its code", async () => {
    await chat(accounts.customer, 25);
    const response = await as("customer", "post", "/api/sessions/from-assistant").send({});
    expect(response.status).toBe(201);
    expect(response.body.attached).toBe(20);
    expect(response.body.session).toMatchObject({ status: "disconnected", userId: accounts.customer.id });
    const code: string = response.body.session.code;

    const read = await as("customer", "get", `/api/sessions/${code}/conversation`);
    expect(read.status).toBe(200);
    const conversation = read.body.conversation as SessionConversationMessage[];
    expect(conversation.map((message) => message.content)).toEqual(
      Array.from({ length: 20 }, (_, index) => `message ${index + 5}`),
    );
    expect(conversation[0]).toEqual({ role: "assistant", content: "message 5", createdAt: expect.any(String) });
    expect(Object.keys(conversation[1]!).sort()).toEqual(["content", "createdAt", "role"]);
    expect(new Date(conversation[1]!.createdAt).getTime()).toBeGreaterThan(
      new Date(conversation[0]!.createdAt).getTime(),
    );
    // The customer's screen lists it like any session of theirs.
    const mine = await as("customer", "get", "/api/sessions/mine");
    expect(mine.body.sessions.map((session: { code: string }) => session.code)).toEqual([code]);
  });

  it("lets its customer, every technician while it waits (the queue), then only the one who joined read it", async () => {
    await chat(accounts.customer, 2, (index) => (index === 0 ? SECRET : "Je vous mets en relation."));
    const created = await as("customer", "post", "/api/sessions/from-assistant");
    const code: string = created.body.session.code;
    const path = `/api/sessions/${code}/conversation`;

    expect((await as("anonymous", "get", path)).status).toBe(401);
    // Issue 28 §7: to another customer, the session does not exist (the answer to an unused code).
    const refused = await as("otherCustomer", "get", path);
    expect([refused.status, refused.body]).toEqual([404, { message: SESSION_MESSAGES.notFound }]);
    // Issue 27: while nobody has taken it, every technician's queue shows the conversation.
    for (const who of ["technician", "otherTechnician"] as const) {
      const waiting = await as(who, "get", path);
      expect(waiting.status, who).toBe(200);
      expect(waiting.body.conversation[0].content).toBe(SECRET);
    }
    const unknown = await as("technician", "get", "/api/sessions/ZZZZZZ/conversation");
    expect([unknown.status, unknown.body]).toEqual([404, { message: SESSION_MESSAGES.notFound }]);

    const joined = await as("technician", "post", "/api/sessions/join").send({ code });
    expect(joined.status).toBe(200);
    const read = await as("technician", "get", path);
    expect(read.status).toBe(200);
    expect(read.body.conversation.map((message: SessionConversationMessage) => message.role)).toEqual([
      "user",
      "assistant",
    ]);
    expect(read.body.conversation[0].content).toBe(SECRET);
    expect((await as("otherTechnician", "get", path)).status).toBe(404);
    expect((await as("otherCustomer", "get", path)).status).toBe(404);
  });

  it("gives back the open session with the newer conversation, and a session started normally has none", async () => {
    const plain = await as("otherCustomer", "post", "/api/sessions").send({});
    expect(plain.status).toBe(201);
    const none = await as("otherCustomer", "get", `/api/sessions/${plain.body.session.code}/conversation`);
    expect(none.body).toEqual({ conversation: null });

    await chat(accounts.customer, 1);
    const first = await as("customer", "post", "/api/sessions/from-assistant");
    await chat(accounts.customer, 3, (index) => `suite ${index}`);
    const again = await as("customer", "post", "/api/sessions/from-assistant");
    expect(again.status).toBe(200);
    expect(again.body.session.code).toBe(first.body.session.code);
    expect(again.body.attached).toBe(4);

    // A customer who never wrote to the assistant still gets the session, with an empty copy.
    await database.db.delete(assistantMessages);
    const empty = await as("customer", "post", "/api/sessions/from-assistant");
    expect(empty.body.attached).toBe(0);
    const read = await as("customer", "get", `/api/sessions/${first.body.session.code}/conversation`);
    expect(read.body).toEqual({ conversation: [] });
  });

  it("follows the rules of a new session: signed in, and the per-account limit", async () => {
    expect((await as("anonymous", "post", "/api/sessions/from-assistant")).status).toBe(401);
    const lines: string[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const service = createSessionService({
      db: database.db,
      logger,
      verifyPasswordHash: async () => false,
      limits: {
        creations: { points: 1, durationSeconds: 60 },
        joins: { points: 100, durationSeconds: 60 },
        joinFailures: { points: 100, durationSeconds: 60 },
        lookupFailures: { points: 100, durationSeconds: 60 },
      },
    });
    expect(await service.createFromAssistant(null)).toEqual({
      ok: false,
      reason: "not-signed-in",
      message: SESSION_MESSAGES.notSignedIn,
    });
    await chat(accounts.customer, 2, () => SECRET);
    const caller = callerOf(accounts.customer);
    const first = await service.createFromAssistant(caller);
    expect(first).toMatchObject({ ok: true, created: true, attached: 2 });
    if (!first.ok) return;
    expect(await service.disconnect(caller, first.session.code)).toMatchObject({ ok: true, changed: true });
    const second = await service.createFromAssistant(caller);
    expect(second).toMatchObject({ ok: false, reason: "too-many-sessions" });
    expect(lines.join("")).toContain("conversation de l'assistant jointe");
    expect(lines.join("")).not.toContain("Tournesol");
  });

  it("keeps the copy on the session's row, so it is deleted with the session", async () => {
    await chat(accounts.customer, 2);
    const created = await as("customer", "post", "/api/sessions/from-assistant");
    const id: string = created.body.session.id;
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row?.assistantConversation).toHaveLength(2);
    // The session's API view never carries it.
    expect(Object.keys(created.body.session)).not.toContain("assistantConversation");
  });
});
