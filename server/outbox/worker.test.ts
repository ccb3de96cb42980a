import { createServer, type IncomingMessage, type Server } from "node:http";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboxMessages } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { freePort } from "#tests/support/postgres.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp.ts";
import { createRequestService } from "#server/requests.ts";
import { createMailTransport, EMAILJS_LIB_VERSION, type MailTransport } from "./transports.ts";
import { createOutboxWorker, retryDelayMs } from "./worker.ts";

const logger = pino({ level: "silent" });
const origin = { ip: "203.0.113.7" };
const contact = { name: "Léa Martin", email: "lea@exemple.fr", message: "Mon écran est fissuré.\nMerci !" };
const quote = {
  companyName: "Boulangerie Durand",
  contactName: "Paul Durand",
  email: "paul@durand.fr",
  phone: "01 23 45 67 89",
  description: "Un site vitrine avec nos horaires.",
  domain: "boulangerie-durand",
  emailOption: "mail-50",
  budget: "1 500 €",
};

describe("retry delay", () => {
  it("doubles from the base with each failure, up to the cap, within ±20 %", () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, 1000, 10_000, middle))).toEqual([
      1000, 2000, 4000, 8000, 10_000,
    ]);
    expect(retryDelayMs(3, 1000, 10_000, () => 0)).toBe(3200);
    expect(retryDelayMs(3, 1000, 10_000, () => 1)).toBe(4800);
  });
});

describe.each(DATABASE_KINDS)("outbox on %s", (kind) => {
  let database: TestDatabase;
  let transports: MailTransport[] = [];
  const forms = () =>
    createRequestService({
      db: database.db,
      logger,
      mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple" },
      rateLimit: { points: 1000, durationSeconds: 60 },
    });
  const worker = (transport: MailTransport, retryBaseMs = 60_000) => {
    transports.push(transport);
    return createOutboxWorker({
      db: database.db,
      transport,
      logger,
      pollIntervalMs: 60_000,
      retryBaseMs,
      retryMaxMs: 600_000,
    });
  };
  const smtp = (url: string) => createMailTransport({ kind: "smtp", url, from: '"Atelier" <site@atelier.exemple>' });
  const rows = () => database.db.select().from(outboxMessages).orderBy(outboxMessages.createdAt);
  /** Makes every pending message due now, as if its backoff had elapsed. */
  const elapse = () =>
    database.db
      .update(outboxMessages)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outboxMessages.status, "pending"));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const transport of transports) transport.close();
    transports = [];
  });
  afterAll(async () => {
    await database.dispose();
  });

  describe("through SMTP", () => {
    let sink: SmtpSink | undefined;
    afterEach(async () => {
      await sink?.close();
      sink = undefined;
    });

    it("delivers a contact message and a quote to the shop, with the right fields, once", async () => {
      sink = await startSmtpSink();
      await forms().submitRequest("contact", contact, origin);
      await forms().submitRequest("quote", quote, origin);
      const outbox = worker(smtp(sink.url));
      expect(await outbox.runOnce()).toBe(2);
      expect(await outbox.runOnce()).toBe(0);

      const stored = await rows();
      expect(stored.map((row) => [row.status, row.attempts, row.lastError])).toEqual([
        ["sent", 1, null],
        ["sent", 1, null],
      ]);
      const byKind = Object.fromEntries(stored.map((row) => [row.requestKind, row.messageId]));
      const contactMail = sink.received.find((mail) => mail.messageId === byKind.contact);
      expect(contactMail).toEqual({
        messageId: byKind.contact,
        from: "site@atelier.exemple",
        to: ["atelier@exemple.fr"],
        replyTo: ["lea@exemple.fr"],
        subject: "Nouveau message de Léa Martin (site web)",
        text: "Nom: Léa Martin\nE-mail: lea@exemple.fr\n\nMessage:\nMon écran est fissuré.\nMerci !\n",
        calendars: [],
      });
      const quoteMail = sink.received.find((mail) => mail.messageId === byKind.quote);
      expect(quoteMail?.replyTo).toEqual(["paul@durand.fr"]);
      expect(quoteMail?.subject).toBe("Demande de devis : Boulangerie Durand");
      expect(quoteMail?.text.split("\n")).toEqual([
        "Entreprise: Boulangerie Durand",
        "Contact: Paul Durand",
        "E-mail: paul@durand.fr",
        "Téléphone: 01 23 45 67 89",
        "Description: Un site vitrine avec nos horaires.",
        "Domaine souhaité: boulangerie-durand.com",
        "Option de messagerie: Boîte mail 50 Go – 9,99\u00a0€ par mois",
        "Budget: 1 500 €",
        "",
      ]);
      expect(sink.received).toHaveLength(2);
    });

    it("keeps messages while the SMTP server is down, backs off, and delivers each once when it returns", async () => {
      const port = await freePort();
      for (let i = 0; i < 3; i += 1)
        await forms().submitRequest("contact", { ...contact, name: `Client ${i}` }, origin);
      const outbox = worker(smtp(`smtp://127.0.0.1:${port}`), 60_000);

      expect(await outbox.runOnce()).toBe(0);
      let stored = await rows();
      expect(stored.every((row) => row.status === "pending" && row.attempts === 1 && row.lastError)).toBe(true);
      const waitMs = stored.map((row) => row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime());
      expect(Math.min(...waitMs)).toBeGreaterThanOrEqual(0.8 * 60_000 - 1000);
      // Not due yet: nothing is attempted before the backoff elapses.
      expect(await outbox.runOnce()).toBe(0);
      expect((await rows()).map((row) => row.attempts)).toEqual([1, 1, 1]);

      await elapse();
      expect(await outbox.runOnce()).toBe(0);
      stored = await rows();
      expect(stored.map((row) => row.attempts)).toEqual([2, 2, 2]);
      const secondWait = stored.map((row) => row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime());
      expect(Math.min(...secondWait)).toBeGreaterThanOrEqual(0.8 * 120_000 - 1000);

      sink = await startSmtpSink(port);
      await elapse();
      expect(await outbox.runOnce()).toBe(3);
      expect(await outbox.runOnce()).toBe(0);
      expect(sink.received.map((mail) => mail.messageId).sort()).toEqual(stored.map((row) => row.messageId).sort());
      expect((await rows()).map((row) => [row.status, row.attempts, row.lastError])).toEqual([
        ["sent", 3, null],
        ["sent", 3, null],
        ["sent", 3, null],
      ]);
    });

    it("never sends a message twice when two workers run at once", async () => {
      sink = await startSmtpSink();
      for (let i = 0; i < 12; i += 1)
        await forms().submitRequest("contact", { ...contact, name: `Client ${i}` }, origin);
      const [a, b] = [worker(smtp(sink.url)), worker(smtp(sink.url))];
      const [sentA, sentB] = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(sentA + sentB).toBe(12);
      expect(new Set(sink.received.map((mail) => mail.messageId)).size).toBe(12);
      expect(sink.received).toHaveLength(12);
    });
  });

  describe("through the e-mail API", () => {
    let server: Server;
    let received: { path: string; contentType: string; body: unknown }[];
    let answers: number[];

    beforeEach(async () => {
      received = [];
      answers = [];
      server = createServer(async (req: IncomingMessage, res) => {
        let text = "";
        for await (const chunk of req) text += chunk;
        received.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", body: JSON.parse(text) });
        const status = answers.shift() ?? 200;
        res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "OK" : "The service is busy");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    });
    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const emailjs = () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      return createMailTransport({
        kind: "emailjs",
        apiUrl: `http://127.0.0.1:${port}`,
        serviceId: "service_atelier",
        templates: { contact: "template_contact", quote: "template_devis" },
        publicKey: "cle-publique",
        privateKey: "cle-privee",
      });
    };

    it("posts the spec's exact payload for a contact message and a quote", async () => {
      await forms().submitRequest("contact", contact, origin);
      await forms().submitRequest("quote", quote, origin);
      expect(await worker(emailjs()).runOnce()).toBe(2);
      expect(received).toEqual([
        {
          path: "/api/v1.0/email/send",
          contentType: "application/json",
          body: {
            lib_version: EMAILJS_LIB_VERSION,
            user_id: "cle-publique",
            service_id: "service_atelier",
            template_id: "template_contact",
            template_params: {
              to_email: "atelier@exemple.fr",
              from_name: "Léa Martin",
              from_email: "lea@exemple.fr",
              message: "Mon écran est fissuré.\nMerci !",
            },
            accessToken: "cle-privee",
          },
        },
        {
          path: "/api/v1.0/email/send",
          contentType: "application/json",
          body: {
            lib_version: EMAILJS_LIB_VERSION,
            user_id: "cle-publique",
            service_id: "service_atelier",
            template_id: "template_devis",
            template_params: {
              to_email: "atelier@exemple.fr",
              from_name: "Paul Durand",
              from_email: "paul@durand.fr",
              company: "Boulangerie Durand",
              phone: "01 23 45 67 89",
              message:
                "Description: Un site vitrine avec nos horaires.\nDomaine souhaité: boulangerie-durand.com\nOption de messagerie: Boîte mail 50 Go – 9,99\u00a0€ par mois\nBudget: 1 500 €",
            },
            accessToken: "cle-privee",
          },
        },
      ]);
    });

    it("retries after a 4xx and a 5xx answer, and stops once one is ok", async () => {
      answers = [429, 503];
      await forms().submitRequest("contact", contact, origin);
      const outbox = worker(emailjs());
      expect(await outbox.runOnce()).toBe(0);
      expect((await rows())[0]).toMatchObject({
        status: "pending",
        attempts: 1,
        lastError: "l'API e-mail a répondu 429 : The service is busy",
      });
      await elapse();
      expect(await outbox.runOnce()).toBe(0);
      expect((await rows())[0]).toMatchObject({
        status: "pending",
        attempts: 2,
        lastError: "l'API e-mail a répondu 503 : The service is busy",
      });
      await elapse();
      expect(await outbox.runOnce()).toBe(1);
      expect((await rows())[0]).toMatchObject({ status: "sent", attempts: 3, lastError: null });
      await elapse();
      expect(await outbox.runOnce()).toBe(0);
      expect(received).toHaveLength(3);
    });
  });

  it("writes each mail once as an .eml file named after its Message-ID when no transport is configured", async () => {
    await forms().submitRequest("contact", contact, origin);
    const folder = path.join(database.dataDir, "outbox");
    const transport = createMailTransport({ kind: "file", folder, from: "site@atelier.exemple" });
    expect(await worker(transport).runOnce()).toBe(1);
    const [row] = await rows();
    // Sending the same row again (a retry after a crash) rewrites the same file.
    await transport.send({ messageId: row!.messageId, mail: row!.mail, createdAt: row!.createdAt });
    const files = await readdir(folder);
    expect(files).toEqual([`${row!.messageId.slice(1, -1)}.eml`]);
    const eml = await readFile(path.join(folder, files[0]!), "utf8");
    expect(eml).toContain(`Message-ID: ${row!.messageId}`);
    expect(eml).toContain("To: atelier@exemple.fr");
  });
});
