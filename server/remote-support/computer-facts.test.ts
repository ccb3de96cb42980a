/**
 * Issue 38 §4, « The computer's facts, before the technician joins », on the server and both databases: the facts
 * the app sends with its session are stored, shortened on the waiting queue's entry before anyone joins, read by the
 * session's technician (and no one else) and kept in the report; none are stored, shown or reported when the
 * customer unticked them; a new pairing without them removes the previous computer's; what the schema has no
 * field for (a serial number) is never stored; they go with the session.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import type { ComputerFacts, FactsResponse } from "#app/remote-support/facts-protocol.ts";
import type { QueueSnapshot } from "#app/remote-support/queue.ts";
import type { SessionReport } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { sessionComputerFacts } from "#database/schema-facts.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import {
  asAccount,
  openSession,
  pair,
  PAIR_FIELDS,
  pairingCode,
  startAppSession,
  type DeviceClient,
} from "./device-testing.ts";
import { connectWaitingApp } from "./queue-testing.ts";

const GIB = 1024 ** 3;
const FACTS: ComputerFacts = {
  os: { name: "Windows 11", version: "10.0.22631" },
  model: "XPS 13 9310",
  cpu: { model: "Intel(R) Core(TM) i5-1135G7 @ 2.40GHz", cores: 8 },
  memory: { total: 8 * GIB, free: 3 * GIB },
  disks: [{ mount: "C:", size: 256 * GIB, free: 15 * GIB }],
  battery: { percent: 76, charging: false },
  uptimeSeconds: 7_200,
  screens: [{ width: 1920, height: 1080 }],
  elevated: false,
};

describe.each(DATABASE_KINDS)("the computer's facts on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const opened: DeviceClient[] = [];

  /** A session the app started with `fields` added, its app connected (so it waits). */
  const appSession = async (fields: object) => {
    const response = await startAppSession(server, {
      ...PAIR_FIELDS,
      platform: "windows",
      customerName: "Marie",
      ...fields,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const body = response.body as DeviceSessionResponse;
    opened.push((await connectWaitingApp(server.url, body.deviceToken)).app);
    return body.sessionCode;
  };
  /** The queue's entry of session `code`, once it is there. */
  const entryOf = async (code: string) => {
    await expect
      .poll(async () => ((await as("technician", "get", "/api/sessions/queue")).body as QueueSnapshot).entries)
      .toHaveLength(1);
    const snapshot = (await as("technician", "get", "/api/sessions/queue")).body as QueueSnapshot;
    return snapshot.entries.find((entry) => entry.code === code)!;
  };
  const factsOf = (code: string, role: Role = "technician") => as(role, "get", `/api/sessions/${code}/facts`);
  const reportOf = async (code: string) => {
    await as("technician", "post", "/api/reports/verify").send({ password: accounts.technician.password });
    const report = await as("technician", "get", `/api/sessions/${code}/report`);
    expect(report.status).toBe(200);
    return report.body.report as SessionReport;
  };
  const storedRows = () => database.db.select().from(sessionComputerFacts);

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

  it("puts the short line on the queue card before anyone joins, then the facts in the view and the report", async () => {
    const code = await appSession({ facts: FACTS });
    const entry = await entryOf(code);
    expect(entry).toMatchObject({ userName: "Marie", system: "Windows" });
    expect(entry.computer).toBe("Windows 11 · 8 Go · disque plein à 94 %");

    // Nobody joined yet: the facts themselves are the session's technician's only.
    expect((await factsOf(code)).status).toBe(404);
    expect((await as("technician", "post", "/api/sessions/join").send({ code })).status).toBe(200);
    const read = await factsOf(code);
    expect(read.status).toBe(200);
    expect((read.body as FactsResponse).facts).toEqual(FACTS);
    expect((await factsOf(code, "otherTechnician")).status).toBe(404);
    expect((await factsOf(code, "customer")).status).toBe(403);

    expect((await reportOf(code)).computerFacts).toEqual(FACTS);
  });

  it("stores, shows and reports nothing when the customer unticked them", async () => {
    const code = await appSession({});
    const entry = await entryOf(code);
    expect(entry).not.toHaveProperty("computer");
    expect(await storedRows()).toEqual([]);
    await as("technician", "post", "/api/sessions/join").send({ code });
    expect((await factsOf(code)).body).toEqual({ facts: null });
    expect(await reportOf(code)).not.toHaveProperty("computerFacts");
  });

  it("never stores what the schema has no field for, and refuses facts beyond their bounds", async () => {
    await appSession({ facts: { ...FACTS, serialNumber: "5CG1234XYZ", userName: "marie.dupont" } });
    const [row] = await storedRows();
    expect(row!.facts).toEqual(FACTS);
    expect(JSON.stringify(row!.facts)).not.toMatch(/5CG1234XYZ|marie\.dupont/);

    const tooMany = Array(9).fill({ mount: "D:", size: GIB, free: GIB });
    const refused = await startAppSession(server, { ...PAIR_FIELDS, facts: { disks: tooMany } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(expect.any(String));
  });

  it("replaces them with a new pairing, removes them when it brings none, and deletes them with the session", async () => {
    const code = await openSession(as, "customer", null);
    expect((await pair(server, await pairingCode(as, code), { ...PAIR_FIELDS, facts: FACTS })).status).toBe(201);
    expect((await storedRows()).map((row) => row.facts)).toEqual([FACTS]);

    const other = { ...FACTS, os: { name: "Debian GNU/Linux 12", version: "6.1.0-18-amd64" } };
    expect((await pair(server, await pairingCode(as, code), { ...PAIR_FIELDS, facts: other })).status).toBe(201);
    expect((await storedRows()).map((row) => row.facts)).toEqual([other]);

    // Another computer, its customer unticked the box: the previous computer's facts do not pass for its own.
    expect((await pair(server, await pairingCode(as, code), PAIR_FIELDS)).status).toBe(201);
    expect(await storedRows()).toEqual([]);

    expect((await pair(server, await pairingCode(as, code), { ...PAIR_FIELDS, facts: FACTS })).status).toBe(201);
    await database.db.delete(sessions).where(eq(sessions.code, code));
    expect(await storedRows()).toEqual([]);
  });
});
