/** Issue 29: the backup status reaches the manager only (`GET /api/backups/status`), failures included. */
import path from "node:path";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupStatusText } from "#app/staff/backup-status.tsx";
import { users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccount,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { recordBackupFailure } from "./status.ts";

let database: TestDatabase;
let server: RemoteSupportServer;
let manager: TestAccount;
let technician: TestAccount;

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database);
  manager = await createAccount(server, database, "customer", false, "-gerant");
  await database.db.update(users).set(roleFields("manager")).where(eq(users.id, manager.id));
  technician = await createAccount(server, database, "technician", true);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

const status = (cookie?: string) => {
  const call = request(server.url).get("/api/backups/status");
  return cookie ? call.set("Cookie", cookie) : call;
};

describe("the backup status for the manager (issue 29)", () => {
  it("is refused in French to visitors and technicians", async () => {
    const anonymous = await status();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe("Utilisateur non connecté");
    const refused = await status(technician.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/gérant/);
  });

  it("tells the manager that none was made yet, then that the last one failed and why", async () => {
    const first = await status(manager.cookie);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    expect(first.body).toMatchObject({ state: "never", lastSuccessAt: null });
    expect(backupStatusText(first.body).lines[0]).toMatch(/^Aucune sauvegarde n'a encore été faite/);

    await recordBackupFailure(path.join(database.dataDir, "backups"), new Error("disque plein"), new Date());
    const after = await status(manager.cookie);
    expect(after.body).toMatchObject({ state: "failed", lastError: "disque plein" });
    const text = backupStatusText(after.body);
    expect(text.alert).toBe(true);
    expect(text.lines[0]).toMatch(/^La dernière sauvegarde a échoué \(.+\) : disque plein$/);
  });
});
