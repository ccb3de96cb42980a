/**
 * The frame of the desktop app's test suites (issues 15, 26, 28): Vitest hooks, so kept apart from
 * `device-testing.ts`, which benchmarks import outside Vitest.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { emptyTables, openTestDatabase, type DatabaseKind, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { asAccount } from "./device-testing.ts";

/** What `deviceSuite` sets up; read its fields inside tests (they are set in `beforeAll`). */
export type DeviceSuite = {
  database: TestDatabase;
  server: RemoteSupportServer;
  accounts: Record<Role, TestAccount>;
  as: ReturnType<typeof asAccount>;
  /** Sockets to close after the test. */
  opened: { close(): unknown }[];
};

/**
 * The frame of a desktop-app test suite on database `kind`: one server with the four test accounts for the
 * suite, tables emptied before each test, the sockets a test pushed on `opened` closed after it.
 */
export function deviceSuite(kind: DatabaseKind): DeviceSuite {
  const suite = { opened: [] } as unknown as DeviceSuite;
  beforeAll(async () => {
    suite.database = await openTestDatabase(kind);
    suite.server = await startRemoteSupportServer(suite.database);
    suite.accounts = await createAccounts(suite.server, suite.database);
    suite.as = asAccount(suite.server, suite.accounts);
  });
  beforeEach(async () => {
    await emptyTables(suite.database.db);
  });
  afterEach(() => {
    for (const socket of suite.opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.database?.dispose();
  });
  return suite;
}
