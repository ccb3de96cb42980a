/**
 * Issue 13 §5: every `/api/auth` body and account field is bounded, with a
 * French 4xx, and nothing too large is stored (the 50 MB name of the report).
 */
import { request as httpRequest } from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "#database/schema.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { AUTH_BODY_LIMIT_BYTES } from "./auth-http.ts";

/** POSTs `body` to better-auth as JSON with the account's cookie; resolves with the status and the JSON answer. */
async function post(server: RemoteSupportServer, path: string, body: unknown, cookie?: string) {
  const response = await fetch(`${server.url}/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as { code?: string; message?: string } | null,
  };
}

/**
 * Streams a `bytes`-long JSON body with http.request, so the answer can come
 * before the upload ends (the server refuses from Content-Length and closes).
 */
function postLarge(
  server: RemoteSupportServer,
  path: string,
  cookie: string,
  bytes: number,
): Promise<{ status: number; body: string }> {
  const prefix = '{"name":"';
  const suffix = '"}';
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": bytes, Origin: server.url, Cookie: cookie },
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // The server may close before the whole body is sent: only the answer matters.
    request.on("error", () => undefined);
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    request.write(prefix);
    sent += prefix.length;
    const pump = () => {
      while (sent + chunk.length < bytes - suffix.length) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end("a".repeat(bytes - suffix.length - sent) + suffix);
    };
    pump();
    setTimeout(() => reject(new Error("pas de réponse")), 30_000).unref();
  });
}

describe("account field bounds (pglite)", () => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let account: TestAccount;
  const storedName = async () =>
    (await database.db.select({ name: users.name }).from(users).where(eq(users.id, account.id)))[0]?.name;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startRemoteSupportServer(database);
    account = await createAccount(server, database, "customer", false);
  });
  afterAll(async () => {
    await server.close();
    await database.dispose();
  });

  it("refuses a 50 MB name with 413 and a French message, before storing anything", async () => {
    const answer = await postLarge(server, "/update-user", account.cookie, 50 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      code: "CONTENU_TROP_VOLUMINEUX",
      message: "Le contenu envoyé est trop volumineux.",
    });
    expect(await storedName()).toBe(account.name);
  });

  it("refuses any body over the limit, whatever its fields", async () => {
    const answer = await post(server, "/sign-in/email", {
      email: "a@exemple.fr",
      password: "x".repeat(AUTH_BODY_LIMIT_BYTES),
    });
    expect(answer.status).toBe(413);
  });

  it("refuses a 101-character name with a French message and keeps the old one", async () => {
    const answer = await post(server, "/update-user", { name: "é".repeat(101) }, account.cookie);
    expect(answer).toEqual({
      status: 400,
      body: { code: "CHAMP_INVALIDE", message: "Le nom ne doit pas dépasser 100 caractères." },
    });
    expect(await storedName()).toBe(account.name);
  });

  it("accepts a 100-character name", async () => {
    const name = "é".repeat(100);
    expect((await post(server, "/update-user", { name }, account.cookie)).status).toBe(200);
    expect(await storedName()).toBe(name);
  });

  it("refuses a name with a NUL or a lone surrogate, and a blank one", async () => {
    for (const name of ["Léa\u0000Martin", "Léa \uD800", "   "]) {
      const answer = await post(server, "/update-user", { name }, account.cookie);
      expect(answer.status).toBe(400);
      expect(answer.body?.code).toBe("CHAMP_INVALIDE");
    }
  });

  it("refuses a 255-character e-mail at sign-up and creates no account", async () => {
    const email = `${"a".repeat(244)}@exemple.fr`;
    expect(email).toHaveLength(255);
    const answer = await post(server, "/sign-up/email", { name: "Trop Long", email, password: "mot-de-passe-long" });
    expect(answer).toEqual({
      status: 400,
      body: { code: "CHAMP_INVALIDE", message: "L'adresse e-mail ne doit pas dépasser 254 caractères." },
    });
    expect(await database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it("refuses an over-long e-mail on sign-in, change-email and reset requests too", async () => {
    const email = `${"a".repeat(244)}@exemple.fr`;
    const answers = [
      await post(server, "/sign-in/email", { email, password: "mot-de-passe-long" }),
      await post(server, "/change-email", { newEmail: email }, account.cookie),
      await post(server, "/request-password-reset", { email, redirectTo: `${server.url}/soft-assist` }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body?.code])).toEqual([
      [400, "CHAMP_INVALIDE"],
      [400, "CHAMP_INVALIDE"],
      [400, "CHAMP_INVALIDE"],
    ]);
  });

  it("refuses a NUL in the query string (a reset token read from it) with a French 400, not a database error", async () => {
    const answers = [
      await post(server, "/reset-password?token=%00", { newPassword: "nouveau-mot-de-passe" }),
      await post(server, "/reset-password?token=abc%00def", { newPassword: "nouveau-mot-de-passe" }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body?.code])).toEqual([
      [400, "CHAMP_INVALIDE"],
      [400, "CHAMP_INVALIDE"],
    ]);
    // A readable token that does not exist is better-auth's own refusal, as before.
    const unknown = await post(server, "/reset-password?token=inconnu", { newPassword: "nouveau-mot-de-passe" });
    expect(unknown.status).toBe(400);
    expect(unknown.body?.code).toBe("INVALID_TOKEN");
  });

  it("bounds direct server calls too (the same hooks)", async () => {
    await expect(
      server.auth.api.signUpEmail({
        body: { name: "x".repeat(101), email: "direct@exemple.fr", password: "mot-de-passe-long" },
      }),
    ).rejects.toMatchObject({ statusCode: 400, body: { message: "Le nom ne doit pas dépasser 100 caractères." } });
  });
});
