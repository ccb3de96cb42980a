/**
 * Issue 40 « Customers of remote help »: the customer learns who joined — the technician's first name, read from
 * their account (no migration), in every session the API answers or pushes (`SessionView.technicianFirstName`),
 * and never the technician's full name or e-mail. Also: every pairing code the server issues holds a digit, so that
 * the desktop app tells a code typed where it asks the first name from a name.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { generatePairingCode } from "./device-pairing.ts";
import { asAccount } from "./device-testing.ts";

describe.each(DATABASE_KINDS)("the technician's first name in a session on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const opened: TestSocket[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("is null while waiting, then « Camille » (of « Camille Tech ») in the join, the push, the lists and the end", async () => {
    const created = await as("customer", "post", "/api/sessions").send({});
    const waiting = created.body.session as SessionView;
    expect(waiting.technicianFirstName).toBeNull();

    const customer = await connectSocket(server.url, accounts.customer.cookie);
    opened.push(customer);
    const pushed = nextEvent(customer, "session:updated");
    const joined = await as("technician", "post", "/api/sessions/join").send({ code: waiting.code });
    expect(joined.status).toBe(200);
    expect(accounts.technician.name).toBe("Camille Tech");
    expect(joined.body.session.technicianFirstName).toBe("Camille");
    const [update] = await pushed;
    expect(update).toMatchObject({ code: waiting.code, status: "connected", technicianFirstName: "Camille" });
    // What the customer receives names the technician by the first name only: no full name, no e-mail.
    expect(JSON.stringify(update)).not.toContain(accounts.technician.email);
    expect(JSON.stringify(update)).not.toContain(accounts.technician.name);

    // A reload of the customer's page reads it again; the technician's lists say it too.
    const mine = await as("customer", "get", "/api/sessions/mine");
    expect(mine.body.sessions).toEqual([
      expect.objectContaining({ code: waiting.code, technicianFirstName: "Camille" }),
    ]);
    expect(JSON.stringify(mine.body)).not.toContain(accounts.technician.email);
    const active = await as("technician", "get", "/api/sessions/active");
    expect(active.body.session.technicianFirstName).toBe("Camille");
    const history = await as("technician", "get", "/api/sessions/history");
    expect(history.body.sessions[0].technicianFirstName).toBe("Camille");

    const ended = await as("customer", "post", `/api/sessions/${waiting.code}/disconnect`).send({});
    expect(ended.body.session).toMatchObject({ endTime: expect.any(String), technicianFirstName: "Camille" });
  });
});

describe("pairing codes", () => {
  it("always hold a digit, so that no first name reads as one", () => {
    // Without the rule, about one code in six would be letters only (20⁸ / 25⁸ ≈ 17 %).
    const codes = Array.from({ length: 2_000 }, generatePairingCode);
    expect(codes.filter((code) => !/\d/.test(code))).toEqual([]);
    expect(new Set(codes.map((code) => code.length))).toEqual(new Set([8]));
  });
});
