/**
 * `/api/assistant/messages` (issue 7) over HTTP, on PGlite and PostgreSQL:
 * signed-in accounts only; the reply streamed as server-sent events and
 * stored; reload and "Nouvelle conversation"; the per-account limit; bad
 * bodies; and, with a (fake) provider, the key and the provider's address
 * never in an answer, the prompt's first-steps and links rules (issue 40)
 * and the stored answer's paths named.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ASSISTANT_MESSAGES, type AssistantMessage } from "#app/assistant/protocol.ts";
import { AUTOMATIC_NOTICE } from "#app/assistant/reply-links.ts";
import { formatPrice } from "#app/catalogue/index.ts";
import { assistantMessages } from "#database/schema.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/support/fake-openai.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { createOpenAICompatibleProvider } from "./openai-compatible.ts";
import { FIRST_STEPS_RULE, LINKS_RULE } from "./prompt.ts";
import { createAssistantService } from "./service.ts";

const KEY = "sk-cle-tres-secrete-du-fournisseur";

/** The server-sent events of a response body. */
function eventsOf(body: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(body);
  return events;
}

const post = (server: RemoteSupportServer, cookie: string | undefined, body: unknown) => {
  const call = request(server.url)
    .post("/api/assistant/messages")
    .buffer(true)
    .parse((res, done) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => done(null, text));
    });
  return (cookie ? call.set("Cookie", cookie) : call).send(body as object);
};

describe.each(DATABASE_KINDS)("assistant API on %s", (kind) => {
  let database: TestDatabase;
  let offline: RemoteSupportServer;
  let online: RemoteSupportServer;
  let fake: FakeOpenAI;
  let customer: TestAccount;
  let onlineCustomer: TestAccount;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    fake = await startFakeOpenAI();
    const logger = pino({ level: "silent" });
    offline = await startRemoteSupportServer(database, {
      assistant: createAssistantService({
        db: database.db,
        logger,
        provider: null,
        rateLimit: { points: 6, durationSeconds: 600 },
      }),
    });
    online = await startRemoteSupportServer(database, {
      assistant: createAssistantService({
        db: database.db,
        logger,
        provider: createOpenAICompatibleProvider({
          apiKey: KEY,
          baseURL: fake.baseURL,
          model: "modele-de-test",
          stream: true,
          timeoutMs: 5_000,
        }),
        rateLimit: { points: 100, durationSeconds: 600 },
      }),
    });
    customer = await createAccount(offline, database, "customer", false, `-assistant-${kind}`);
    onlineCustomer = await createAccount(online, database, "otherCustomer", false, `-assistant-${kind}`);
  });
  beforeEach(async () => {
    await database.db.delete(assistantMessages);
  });
  afterAll(async () => {
    await offline?.close();
    await online?.close();
    await fake?.close();
    await database?.dispose();
  });

  it("refuses anonymous callers with « Utilisateur non connecté »", async () => {
    for (const response of [
      await request(offline.url).get("/api/assistant/messages"),
      await request(offline.url).delete("/api/assistant/messages"),
      await post(offline, undefined, { content: "Bonjour" }),
    ]) {
      expect(response.status).toBe(401);
      expect(JSON.parse(typeof response.body === "string" ? response.body : JSON.stringify(response.body))).toEqual({
        message: "Utilisateur non connecté",
      });
    }
  });

  it("streams the offline answer, stores both messages, and forgets them on « Nouvelle conversation »", async () => {
    const response = await post(offline, customer.cookie, { content: "Combien coûte le port HDMI d'une PS5 ?" });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    const events = eventsOf(response.body as string);
    expect(events.map((event) => event.event)).toEqual(["user", "delta", "done"]);
    const done = JSON.parse(events.at(-1)!.data) as AssistantMessage;
    expect(done.role).toBe("assistant");
    expect(done.content).toContain(formatPrice(89));
    expect(done.content).toContain("/services/playstation-repair#ps5");

    const reloaded = await request(offline.url).get("/api/assistant/messages").set("Cookie", customer.cookie);
    expect(reloaded.body.messages.map((message: AssistantMessage) => [message.role, message.content])).toEqual([
      ["user", "Combien coûte le port HDMI d'une PS5 ?"],
      ["assistant", done.content],
    ]);
    // Another account sees none of it.
    const other = await request(offline.url).get("/api/assistant/messages").set("Cookie", onlineCustomer.cookie);
    expect(other.body).toEqual({ messages: [] });

    expect((await request(offline.url).delete("/api/assistant/messages").set("Cookie", customer.cookie)).status).toBe(
      204,
    );
    expect((await request(offline.url).get("/api/assistant/messages").set("Cookie", customer.cookie)).body).toEqual({
      messages: [],
    });
  });

  it("answers an empty message with the spec's sentence, and refuses bad bodies in French", async () => {
    const empty = eventsOf((await post(offline, customer.cookie, { content: "   " })).body as string);
    expect(JSON.parse(empty.at(-1)!.data).content).toBe(ASSISTANT_MESSAGES.emptyMessage);
    const long = await post(offline, customer.cookie, { content: "x".repeat(2001) });
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body as string)).toEqual({ message: ASSISTANT_MESSAGES.tooLong });
    const missing = await post(offline, customer.cookie, {});
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body as string)).toEqual({ message: "Le message est obligatoire." });
  });

  it("limits messages per account (429 with Retry-After), storing nothing more", async () => {
    const account = await createAccount(offline, database, "customer", false, `-limite-${kind}`);
    for (let i = 0; i < 6; i++)
      expect((await post(offline, account.cookie, { content: `Question ${i}` })).status).toBe(200);
    const refused = await post(offline, account.cookie, { content: "Encore une" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body as string)).toEqual({ message: ASSISTANT_MESSAGES.tooManyMessages });
    const stored = await request(offline.url).get("/api/assistant/messages").set("Cookie", account.cookie);
    expect(stored.body.messages).toHaveLength(12);
  });

  it("with a provider: streams its reply in pieces, sends at most 10 history entries, never reveals the key", async () => {
    for (let i = 0; i < 6; i++) {
      fake.script({ text: `Réponse ${i}.` });
      await post(online, onlineCustomer.cookie, { content: `Question ${i}` });
    }
    fake.requests.length = 0;
    fake.script({ text: "Vérifiez que le câble réseau est bien branché, puis redémarrez la box." });
    const response = await post(online, onlineCustomer.cookie, { content: "Internet ne marche plus." });
    const events = eventsOf(response.body as string);
    expect(events.filter((event) => event.event === "delta").length).toBeGreaterThan(3);
    expect(JSON.parse(events.at(-1)!.data).content).toBe(
      "Vérifiez que le câble réseau est bien branché, puis redémarrez la box.",
    );
    const messages = fake.requests[0]!.messages as { role: string }[];
    expect(messages).toHaveLength(11);
    expect(fake.authorizations[0]).toBe(`Bearer ${KEY}`);

    const reloaded = await request(online.url).get("/api/assistant/messages").set("Cookie", onlineCustomer.cookie);
    for (const text of [response.body as string, JSON.stringify(reloaded.body), JSON.stringify(reloaded.headers)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(fake.baseURL);
    }
  });

  it("with a provider: asks for first steps then a technician and named links; stores the answer's paths named", async () => {
    // An answer stored before issue 40, with the sentence it no longer says.
    const before = Date.now() - 60_000;
    await database.db.insert(assistantMessages).values([
      { userId: onlineCustomer.id, role: "user", content: "Bonjour", createdAt: new Date(before) },
      {
        userId: onlineCustomer.id,
        role: "assistant",
        content: `${AUTOMATIC_NOTICE}\nBonjour !`,
        createdAt: new Date(before + 1_000),
      },
    ]);
    fake.requests.length = 0;
    // The fake model answers what a model following the prompt writes, with a bare path and the old sentence.
    fake.script({
      text: `${AUTOMATIC_NOTICE}\n1. Redémarrez l'ordinateur.\n2. Fermez les programmes inutiles.\nSi cela ne suffit pas, cliquez sur « Parler à un technicien », ou voyez /services/pc-repair.`,
    });
    const response = await post(online, onlineCustomer.cookie, {
      content: "Mon ordinateur est très lent, que faire ?",
    });
    const done = JSON.parse(eventsOf(response.body as string).at(-1)!.data) as AssistantMessage;

    const messages = fake.requests[0]!.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe("system");
    expect(messages[0]!.content).toContain(FIRST_STEPS_RULE);
    expect(messages[0]!.content).toContain(LINKS_RULE);
    expect(FIRST_STEPS_RULE).toMatch(/d'abord.*lui-même.*puis.*technicien.*Parler à un technicien/);
    expect(FIRST_STEPS_RULE).toContain("que si le client demande une réparation ou un prix");
    expect(messages.at(-2)).toEqual({ role: "assistant", content: "Bonjour !" });
    expect(messages.at(-1)).toEqual({ role: "user", content: "Mon ordinateur est très lent, que faire ?" });

    expect(done.content).toBe(
      "1. Redémarrez l'ordinateur.\n2. Fermez les programmes inutiles.\nSi cela ne suffit pas, cliquez sur « Parler à un technicien », ou voyez [Réparation PC](/services/pc-repair).",
    );
    const reloaded = await request(online.url).get("/api/assistant/messages").set("Cookie", onlineCustomer.cookie);
    expect(reloaded.body.messages.at(-1).content).toBe(done.content);
  });
});
