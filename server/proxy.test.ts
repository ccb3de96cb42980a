/**
 * TRUST_PROXY (issue 13 §1): a visitor who writes their own X-Forwarded-For
 * (a new address on each request) is still counted as one visitor by the
 * contact-form limit (FORM_RATE_LIMIT) and the sign-in limit.
 *
 * The test client connects from 127.0.0.1. Without a trusted proxy the header
 * is ignored. With `1` or `loopback`, the client plays nginx on the same
 * machine: it passes on the visitor's header and appends the address the
 * visitor connected from (`$proxy_add_x_forwarded_for`), the one that counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "#tests/support/app-server.ts";

const LIMIT = 3;
const contact = { name: "Léa Martin", email: "lea@exemple.fr", message: "Mon écran est fissuré." };

let spoofed = 0;
/** A forged address, different on every call. */
const forged = () => `198.18.${Math.floor(++spoofed / 250)}.${spoofed % 250}`;

async function postContact(server: AppServer, forwardedFor: string): Promise<number> {
  const response = await fetch(`${server.url}/api/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor },
    body: JSON.stringify(contact),
  });
  return response.status;
}

async function signIn(server: AppServer, forwardedFor: string): Promise<number> {
  // A new unknown account each time: only the per-address count can refuse it.
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": forwardedFor },
    body: JSON.stringify({
      email: `inconnu-${forged().replaceAll(".", "-")}@exemple.fr`,
      password: "mauvais-mot-de-passe",
    }),
  });
  return response.status;
}

/** Statuses of LIMIT + 1 requests, each with a header from `forwardedFor()`. */
async function statuses(send: (header: string) => Promise<number>, forwardedFor: () => string): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i <= LIMIT; i += 1) seen.push(await send(forwardedFor()));
  return seen;
}

const variables = { FORM_RATE_LIMIT: String(LIMIT), AUTH_SIGN_IN_LIMIT: String(LIMIT) };

describe.each([
  ["unset", {}],
  ["a proxy on another machine (192.0.2.10)", { TRUST_PROXY: "192.0.2.10" }],
])("TRUST_PROXY %s: the header is ignored", (_name, trust) => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ ...variables, ...trust });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses the contact request past the limit, whatever X-Forwarded-For says", async () => {
    expect(await statuses((header) => postContact(server, header), forged)).toEqual([201, 201, 201, 429]);
    expect(await postContact(server, `${forged()}, 203.0.113.7`)).toBe(429);
  });

  it("refuses the sign-in past the limit, whatever X-Forwarded-For says", async () => {
    expect(await statuses((header) => signIn(server, header), forged)).toEqual([401, 401, 401, 429]);
  });
});

describe.each([["1"], ["loopback"]])("TRUST_PROXY=%s behind a proxy on the same machine", (trust) => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ ...variables, TRUST_PROXY: trust });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("counts the address the proxy saw, not the one the visitor wrote", async () => {
    const visitor = () => `${forged()}, 203.0.113.7`;
    expect(await statuses((header) => postContact(server, header), visitor)).toEqual([201, 201, 201, 429]);
    // Another visitor behind the same proxy has a budget of their own.
    expect(await postContact(server, `${forged()}, 198.51.100.9`)).toBe(201);
  });

  it("limits sign-in attempts by the address the proxy saw", async () => {
    const visitor = () => `${forged()}, 203.0.113.8`;
    expect(await statuses((header) => signIn(server, header), visitor)).toEqual([401, 401, 401, 429]);
    expect(await signIn(server, `${forged()}, 198.51.100.10`)).toBe(401);
  });
});
