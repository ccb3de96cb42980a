/**
 * Issue 13 §7: hostile bytes on every public endpoint (the list in
 * `tests/support/bad-inputs.ts`, also run by `bench/bad-inputs.ts` against the
 * production build) never get a 5xx or a stack trace, and store nothing.
 *
 * The API endpoints are called over HTTP on the test server (better-auth,
 * remote support, assistant, forms, wired as `server/app.ts` does); the page
 * actions of /contact, /dev-web and /soft-assist are called as React Router calls them,
 * with the raw body in a `Request` (the production build is not needed).
 * Issue 26's `POST /api/device/sessions` (no account) gets its own attempts,
 * nested JSON values included.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as contactAction } from "#app/routes/contact.tsx";
import { action as quoteAction } from "#app/routes/dev-web.tsx";
import { action as accountAction } from "#app/routes/soft-assist.tsx";
import { accountServicesContext, formServicesContext, requestOriginContext } from "#app/utils/server-context.ts";
import { createAccountServices } from "./account-forms.ts";
import { badInputs, type BadInput } from "#tests/support/bad-inputs.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { assistantMessages } from "#database/schema.ts";
import { createAssistantService } from "./assistant/service.ts";
import { createRequestService } from "./requests.ts";

const TABLES = [
  "contact_requests",
  "quote_requests",
  "outbox_messages",
  "assistant_messages",
  "assistant_ratings",
  "session_events",
  "session_devices",
  "sessions",
  "users",
  "accounts",
  "verifications",
];

type Answer = { status: number; body: string };

describe.each(DATABASE_KINDS)("bad inputs on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let customer: TestAccount;
  let technician: TestAccount;
  let code: string;
  /** An answer of the customer's assistant conversation: the `:message` of the rating route. */
  let answerId: string;
  let pageContext: RouterContextProvider;

  /** Rows per table, and every account's name and e-mail: what "nothing stored" compares. */
  async function snapshot() {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const result = (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
        rows: { n: number }[];
      };
      counts[table] = result.rows[0]!.n;
    }
    const accounts = (await database.db.execute(
      sql.raw("select name, email, image from users order by id"),
    )) as unknown as { rows: unknown[] };
    return { counts, accounts: accounts.rows };
  }

  async function send(attempt: BadInput): Promise<Answer> {
    const headers: Record<string, string> = { Origin: server.url };
    if (attempt.contentType !== undefined) headers["Content-Type"] = attempt.contentType;
    if (attempt.path === "/contact" || attempt.path === "/dev-web" || attempt.path === "/soft-assist") {
      const request = new Request(`${server.url}${attempt.path}`, { method: "POST", headers, body: attempt.body });
      const args = { request, context: pageContext, params: {} } as never;
      const actions = { "/contact": contactAction, "/dev-web": quoteAction, "/soft-assist": accountAction };
      const answer = await actions[attempt.path](args);
      return { status: answer.init?.status ?? 200, body: JSON.stringify(answer.data) };
    }
    const cookie =
      attempt.caller === "customer" ? customer.cookie : attempt.caller === "technician" ? technician.cookie : undefined;
    if (cookie) headers.Cookie = cookie;
    const response = await fetch(`${server.url}${attempt.path.replace(":code", code).replace(":message", answerId)}`, {
      method: attempt.method,
      headers,
      body: attempt.body,
    });
    return { status: response.status, body: await response.text() };
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const logger = pino({ level: "silent" });
    const assistant = createAssistantService({
      db: database.db,
      logger,
      provider: null,
      rateLimit: { points: 10_000, durationSeconds: 60 },
    });
    server = await startRemoteSupportServer(database, { assistant });
    customer = await createAccount(server, database, "customer", false, `-${kind}`);
    technician = await createAccount(server, database, "technician", true, `-${kind}`);
    const headers = { "Content-Type": "application/json", Origin: server.url };
    const created = await fetch(`${server.url}/api/sessions`, {
      method: "POST",
      headers: { ...headers, Cookie: customer.cookie },
      body: "{}",
    });
    code = ((await created.json()) as { session: { code: string } }).session.code;
    const joined = await fetch(`${server.url}/api/sessions/join`, {
      method: "POST",
      headers: { ...headers, Cookie: technician.cookie },
      body: JSON.stringify({ code }),
    });
    expect(joined.status).toBe(200);
    const [answer] = await database.db
      .insert(assistantMessages)
      .values({ userId: customer.id, role: "assistant", content: "Écran : à partir de 89 €" })
      .returning({ id: assistantMessages.id });
    answerId = answer!.id;
    pageContext = new RouterContextProvider();
    pageContext.set(
      formServicesContext,
      createRequestService({
        db: database.db,
        logger,
        mail: { shopEmail: "atelier@exemple.fr", messageIdDomain: "atelier.exemple" },
        rateLimit: { points: 10_000, durationSeconds: 60 },
      }),
    );
    pageContext.set(requestOriginContext, { ip: "203.0.113.50" });
    pageContext.set(
      accountServicesContext,
      createAccountServices({ auth: server.auth, sessions: server.sessions, publicUrl: server.url, logger }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("answers every hostile input with a 4xx, no stack trace, and stores nothing", async () => {
    const attempts = badInputs();
    expect(attempts.length).toBeGreaterThan(300);
    const before = await snapshot();
    const faults: string[] = [];
    const statuses = new Set<number>();
    for (const attempt of attempts) {
      const answer = await send(attempt);
      statuses.add(answer.status);
      if (answer.status < 400 || answer.status >= 500 || /\n\s+at /.test(answer.body)) {
        // 2xx is allowed only where the endpoint ignores its body: POST /api/sessions answers the customer's open session.
        if (!(attempt.path === "/api/sessions" && answer.status === 200))
          faults.push(`${attempt.target} — ${attempt.input}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    expect(faults).toEqual([]);
    expect([...statuses].every((status) => status >= 200 && status < 500)).toBe(true);
    expect(await snapshot()).toEqual(before);
  }, 240_000);

  it("answers hostile bytes on POST /api/device/sessions (issue 26, no account) with a 4xx, creating nothing", async () => {
    const before = await snapshot();
    const valid = {
      customerName: "Marie",
      computerName: "PC-SALON",
      platform: "linux",
      arch: "x64",
      appVersion: "1.0.0",
      injection: { ok: false, reason: "Wayland" },
      screens: [{ id: "0", x: 0, y: 0, width: 1280, height: 720, scale: 1, primary: true }],
      capture: { ok: true },
    };
    // The shared attempts (flat string fields: every field's hostile values, broken and mistyped bodies)…
    const attempts: BadInput[] = badInputs([
      {
        name: "POST /api/device/sessions",
        path: "/api/device/sessions",
        caller: "anonymous",
        valid: { customerName: "Marie", computerName: "PC-SALON", platform: "linux", arch: "x64", appVersion: "1" },
      },
    ]);
    // …and a complete body with one value at a time, nested ones included, replaced by hostile JSON.
    const hostile = ['"L\\u0000a"', '"L\\ud800a"', '"\\u001b[31m"', "1e999", "-0", "true", '{"$ne":""}', '["a"]'];
    const paths = [
      ["customerName"],
      ["computerName"],
      ["platform"],
      ["arch"],
      ["appVersion"],
      ["injection"],
      ["injection", "reason"],
      ["screens"],
      ["screens", 0, "id"],
      ["screens", 0, "width"],
      ["capture"],
    ];
    for (const path of paths) {
      for (const value of hostile) {
        const marker = "__HOSTILE__";
        const body = structuredClone(valid) as Record<string | number, unknown>;
        let parent = body;
        for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
        parent[path.at(-1)!] = marker;
        attempts.push({
          target: "POST /api/device/sessions",
          input: `JSON, ${path.join(".")}: ${value}`,
          method: "POST",
          path: "/api/device/sessions",
          caller: "anonymous",
          contentType: "application/json",
          body: new Uint8Array(Buffer.from(JSON.stringify(body).replace(`"${marker}"`, value))),
        });
      }
    }
    const faults: string[] = [];
    const statuses = new Set<number>();
    for (const attempt of attempts) {
      const answer = await send(attempt);
      statuses.add(answer.status);
      if (answer.status < 400 || answer.status >= 500 || /\n\s+at /.test(answer.body))
        faults.push(`${attempt.input}: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    expect(faults).toEqual([]);
    // Every attempt reached the route (a wrong path would "pass" with 404s).
    expect(statuses.has(404)).toBe(false);
    expect(statuses.has(400)).toBe(true);
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it("answers malformed answer ids and staff-list queries with a French 400 (issue 17 §4)", async () => {
    const before = await snapshot();
    const headers = { "Content-Type": "application/json", Origin: server.url };
    const body = JSON.stringify({ rating: "useful" });
    const ids = [
      "pas-un-uuid",
      "%00",
      "%FF",
      "%ED%A0%80",
      "..%2F..%2Fetc",
      "'%20or%201=1--",
      "1".repeat(5000),
      "%F0%9F%98%80",
    ];
    for (const id of ids) {
      const response = await fetch(`${server.url}/api/assistant/messages/${id}/rating`, {
        method: "PUT",
        headers: { ...headers, Cookie: customer.cookie },
        body,
      });
      const text = await response.text();
      expect([400, 404], `${id}: ${response.status} ${text.slice(0, 200)}`).toContain(response.status);
      expect(text).not.toMatch(/\n\s+at /);
      // An id that is not even valid percent-encoding (%FF) is refused by Express's router before the route: its generic 400.
      if (response.status === 400)
        expect(["Identifiant de réponse invalide.", "Le contenu envoyé doit être un objet JSON."], id).toContain(
          JSON.parse(text).message,
        );
    }
    const queries = [
      "avis=%00",
      "avis=%FF",
      "avis=tous&avis=tous",
      "avant=%00",
      "avant=%ED%A0%80",
      "avant=9999999-01-01T00:00:00Z",
      "avant=2025-02-30T00:00:00Z",
      "avant=1e999",
      `avant=${"9".repeat(5000)}`,
    ];
    for (const query of queries) {
      const response = await fetch(`${server.url}/api/assistant/ratings?${query}`, {
        headers: { Cookie: technician.cookie },
      });
      const text = await response.text();
      expect(response.status, `${query}: ${text.slice(0, 200)}`).toBe(400);
      expect(JSON.parse(text).message).toMatch(/^(Filtre d'avis invalide|Date de pagination invalide)/);
    }
    expect(await snapshot()).toEqual(before);
  });
});
