/**
 * Origins on the whole server (issue 13 §9 and §12a): only PUBLIC_URL's
 * origin is trusted, whatever the Host header says, by better-auth (password
 * reset), by the Socket.IO handshake and by the remote-support API, whose
 * state-changing requests from another site are refused.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactRequests, outboxMessages, sessions } from "#database/schema.ts";
import { rawRequest, startAppServer, type AppServer } from "#tests/support/app-server.ts";
import { connectSocket, signIn } from "#tests/support/remote-support.ts";
import { CROSS_SITE_MESSAGE } from "./security.ts";

const EVIL = "http://evil.example";
const customer = { name: "Léa Martin", email: "lea.martin@exemple.fr", password: "mot-de-passe-client" };

let server: AppServer;
let cookie: string;
beforeAll(async () => {
  server = await startAppServer();
  await server.services.auth.api.signUpEmail({ body: customer });
  cookie = await signIn(server.url, customer.email, customer.password);
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.services.database.db;
const resetMails = () => db().$count(outboxMessages, eq(outboxMessages.requestKind, "password-reset"));

describe("password reset only for PUBLIC_URL (issue 13 §9)", () => {
  const reset = (headers: Record<string, string>, redirectTo: string) =>
    rawRequest(server.url, "/api/auth/request-password-reset", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ email: customer.email, redirectTo }),
    });

  it("refuses a foreign Host and redirectTo, and queues no mail", async () => {
    const before = await resetMails();
    const hostile = [
      await reset({ Host: "evil.example", Origin: EVIL }, `${EVIL}/soft-assist/nouveau-mot-de-passe`),
      await reset({ Host: "evil.example" }, `${EVIL}/soft-assist/nouveau-mot-de-passe`),
    ];
    expect(hostile.map((answer) => answer.status)).toEqual([403, 403]);
    expect(await resetMails()).toBe(before);
  });

  it("still queues the mail of a reset asked from the site itself", async () => {
    const before = await resetMails();
    const answer = await reset({ Origin: server.url }, `${server.url}/soft-assist/nouveau-mot-de-passe`);
    expect(answer.status).toBe(200);
    expect(await resetMails()).toBe(before + 1);
  });
});

describe("Socket.IO handshake only from PUBLIC_URL (issue 13 §9)", () => {
  const pollingHandshake = (headers: Record<string, string>) =>
    rawRequest(server.url, "/socket.io/?EIO=4&transport=polling", { headers: { Cookie: cookie, ...headers } });

  it("refuses a foreign Origin even when the Host header matches it", async () => {
    expect((await pollingHandshake({ Origin: EVIL, Host: "evil.example" })).status).toBe(403);
    expect((await pollingHandshake({ Origin: EVIL })).status).toBe(403);
    await expect(connectSocket(server.url, cookie, { Origin: EVIL, Host: "evil.example" })).rejects.toThrow();
  });

  it("accepts the site's own origin", async () => {
    expect((await pollingHandshake({ Origin: server.url })).status).toBe(200);
    const socket = await connectSocket(server.url, cookie, { Origin: server.url });
    socket.close();
  });
});

describe("state-changing /api requests from another site (issue 13 §12a)", () => {
  const post = (path: string, headers: Record<string, string>, body: object = {}) =>
    rawRequest(server.url, path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const contact = { name: "Paul Durand", email: "paul@exemple.fr", message: "Mon imprimante ne répond plus." };

  it("refuses a foreign Origin with 403 and a French message, and creates nothing", async () => {
    const before = await db().$count(sessions);
    for (const origin of [EVIL, "null", "http://127.0.0.1", `${server.url}.evil.example`]) {
      const answer = await post("/api/sessions", { Origin: origin, Cookie: cookie });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body), origin).toEqual({ message: CROSS_SITE_MESSAGE });
    }
    const cleared = await rawRequest(server.url, "/api/assistant/messages", {
      method: "DELETE",
      headers: { Origin: EVIL, Cookie: cookie },
    });
    expect(cleared.status).toBe(403);
    expect(await db().$count(sessions)).toBe(before);
  });

  it("refuses a cookie-carrying request without Origin that the browser says comes from another site", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const answer = await post("/api/sessions", { Cookie: cookie, "Sec-Fetch-Site": site });
      expect(answer.status, site).toBe(403);
    }
  });

  it("answers the forms' own shape on /api/contact, whatever the case of the path", async () => {
    const before = await db().$count(contactRequests);
    for (const path of ["/api/contact", "/API/Contact", "/api/quote/"]) {
      const answer = await post(path, { Origin: EVIL }, contact);
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body), path).toEqual({ ok: false, message: CROSS_SITE_MESSAGE });
    }
    expect(await db().$count(contactRequests)).toBe(before);
  });

  it("lets the site's own requests, and scripts without Origin or cookie, through", async () => {
    const created = await post("/api/sessions", { Origin: server.url, Cookie: cookie });
    expect(created.status).toBe(201);
    const again = await post("/api/sessions", { Cookie: cookie, "Sec-Fetch-Site": "same-origin" });
    expect(again.status).toBe(200);
    const cleared = await rawRequest(server.url, "/api/assistant/messages", {
      method: "DELETE",
      headers: { Origin: server.url, Cookie: cookie },
    });
    expect(cleared.status).toBe(204);
    expect((await post("/api/contact", {}, contact)).status).toBe(201);
    // A script may say where it comes from: without a cookie it speaks for no one's account.
    expect((await post("/api/contact", { "Sec-Fetch-Site": "cross-site" }, contact)).status).toBe(201);
  });

  it("leaves reading requests alone (the browser keeps another site from reading the answer)", async () => {
    expect((await rawRequest(server.url, "/api/me", { headers: { Origin: EVIL, Cookie: cookie } })).status).toBe(200);
  });

  it("leaves /api/auth to better-auth's own check, which refuses a foreign Origin too", async () => {
    const answer = await post("/api/auth/sign-out", { Origin: EVIL, Cookie: cookie });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain(CROSS_SITE_MESSAGE);
  });
});

describe("a page's form posted with an unreadable Origin (issue 30: never an English error)", () => {
  it("gets a French 403 page, not React Router's « Bad Request »", async () => {
    const before = await db().$count(contactRequests);
    for (const origin of ["foo", "http://", "%%%"]) {
      const answer = await rawRequest(server.url, "/contact", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
        body: "name=Paul&email=paul%40exemple.fr&message=Bonjour",
      });
      expect(answer.status, origin).toBe(403);
      expect(answer.body, origin).toContain(CROSS_SITE_MESSAGE);
      expect(answer.body, origin).toContain('lang="fr"');
      expect(answer.body, origin).not.toMatch(/Bad Request/i);
    }
    expect(await db().$count(contactRequests)).toBe(before);
  });
});
