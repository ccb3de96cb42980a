/**
 * Issue 29: the manager set-up link printed at start (logged once at warn, single use, refused once a
 * manager exists), `npm run user`'s new options (`--manager`, `disable`/`enable`, French role names, the
 * last active manager kept), the purge of expired links, and the NOTIFY that ends an account's sockets
 * when the command disables or deletes it beside a running server (PostgreSQL only).
 */
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffInvitations } from "#database/schema-staff.ts";
import { users } from "#database/schema.ts";
import { parseEnv } from "#server/env.ts";
import { purgeExpired } from "#server/retention.ts";
import { runUserCommand, UsageError } from "../../scripts/user-command.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { DEFAULT_POLICY } from "#tests/support/retention.ts";
import { startRemoteSupportServer, TEST_AUTH_SECRET, type RemoteSupportServer } from "#tests/support/remote-support.ts";
import { listenAccountEnded } from "./account-events.ts";
import { notifyAccountEnded } from "./accounts.ts";
import { createStaffService } from "./service.ts";

let database: TestDatabase;
let server: RemoteSupportServer;

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  server = await startRemoteSupportServer(database, { staff: {} });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.dispose();
});

/** A logger whose lines (parsed JSON) land in `lines`. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: pino({ level: "info" }, stream) };
}

const command = (...argv: string[]) =>
  runUserCommand(argv, {
    db: database.db,
    env: parseEnv({ NODE_ENV: "test", DATA_DIR: database.dataDir, BETTER_AUTH_SECRET: TEST_AUTH_SECRET }),
    askPassword: async () => {
      throw new UsageError("mot de passe manquant");
    },
  });

describe("the manager set-up link", () => {
  it("is logged once at warn while no manager exists, makes the manager once, then is refused", async () => {
    const { lines, logger } = capturingLogger();
    const staff = createStaffService({ db: database.db, auth: server.auth, logger, publicUrl: server.url });
    expect(await staff.announceSetupLink()).toBe(true);
    const warned = lines.filter((line) => line.level === 40);
    expect(warned).toHaveLength(1);
    const token = /\/soft-assist\/gerant\?jeton=([A-Za-z0-9_-]{43})$/.exec(warned[0]!.msg)?.[1];
    expect(token).toBeDefined();
    const [stored] = await database.db
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.kind, "manager-setup"));
    expect(stored?.tokenHash).not.toContain(token);

    expect((await request(server.url).post("/api/staff/setup/check").send({ token })).status).toBe(200);
    const fields = { token, name: "Sam Gérant", email: "Sam@Atelier.example", password: "motdepasse-sam" };
    const created = await request(server.url).post("/api/staff/setup").send(fields);
    expect(created.status).toBe(201);
    expect(created.headers["set-cookie"]).toBeDefined();
    const [manager] = await database.db.select().from(users).where(eq(users.email, "sam@atelier.example"));
    expect(manager).toMatchObject({ role: "manager", emailVerified: true });

    const again = await request(server.url).post("/api/staff/setup").send(fields);
    expect(again.status).toBe(410);
    expect(again.body.message).toBe("Un compte gérant existe déjà : ce lien ne sert plus. Connectez-vous.");
    expect(await staff.announceSetupLink()).toBe(false);
    // Nothing but that warn line ever carried the token.
    expect(lines.filter((line) => JSON.stringify(line).includes(token!))).toHaveLength(1);
  });
});

describe("npm run user", () => {
  it("creates and promotes managers, lists roles in French, disables and enables, keeps the last manager", async () => {
    await command(
      "create",
      "--email",
      "gerante@atelier.example",
      "--name",
      "Gérante",
      "--password",
      "motdepasse-1",
      "--manager",
    );
    await command(
      "create",
      "--email",
      "tech@atelier.example",
      "--name",
      "Tech",
      "--password",
      "motdepasse-2",
      "--technician",
    );
    await command("create", "--email", "client@exemple.fr", "--name", "Client", "--password", "motdepasse-3");
    let list = await command("list");
    expect(list).toMatch(/^gérant\s+gerante@atelier\.example/m);
    expect(list).toMatch(/^technicien\s+tech@atelier\.example/m);
    expect(list).toMatch(/^client\s+client@exemple\.fr/m);

    // Issue 37 §3: nobody proved this address; --force says the operator knows its owner.
    await expect(command("promote", "client@exemple.fr", "--manager")).rejects.toThrow(/n'a jamais été prouvée/);
    expect(await command("promote", "client@exemple.fr", "--manager", "--force")).toBe(
      "client@exemple.fr est maintenant gérant.",
    );
    expect(await command("demote", "client@exemple.fr", "--technician")).toBe(
      "client@exemple.fr est maintenant technicien.",
    );
    expect(await command("disable", "tech@atelier.example")).toMatch(/^Compte tech@atelier\.example désactivé/);
    list = await command("list");
    expect(list).toMatch(/tech@atelier\.example .*désactivé\)$/m);
    expect(await command("enable", "tech@atelier.example")).toBe("Compte tech@atelier.example réactivé.");

    // Two managers exist (Sam from the set-up link, and this one): the second disabling is refused.
    await command("disable", "sam@atelier.example");
    await expect(command("disable", "gerante@atelier.example")).rejects.toThrow(/dernier gérant actif/);
    await command("enable", "sam@atelier.example");
    await expect(command("promote", "x@y.fr", "--manager", "--technician")).rejects.toThrow(UsageError);
    expect(await command("delete", "client@exemple.fr")).toBe("Compte client@exemple.fr supprimé.");
  }, 30_000);
});

describe("retention", () => {
  it("deletes links past their time, used or not, and keeps the others", async () => {
    const past = new Date(Date.now() - 1000);
    await database.db.insert(staffInvitations).values([
      { kind: "technician", email: "vieux@exemple.fr", tokenHash: "h1", expiresAt: past },
      { kind: "technician", email: "neuf@exemple.fr", tokenHash: "h2", expiresAt: new Date(Date.now() + 60_000) },
    ]);
    const counts = await purgeExpired({
      db: database.db,
      policy: DEFAULT_POLICY,
      outboxFolder: database.dataDir,
      pauseMs: 0,
    });
    expect(counts.staffInvitations).toBeGreaterThanOrEqual(1);
    const left = await database.db.select({ email: staffInvitations.email }).from(staffInvitations);
    expect(left.map((row) => row.email)).toContain("neuf@exemple.fr");
    expect(left.map((row) => row.email)).not.toContain("vieux@exemple.fr");
  });
});

describe.runIf(DATABASE_KINDS.includes("postgres"))("a command beside a running server (PostgreSQL)", () => {
  it("reaches every listening server through NOTIFY, one call per ended sign-in session", async () => {
    const postgres = await openTestDatabase("postgres");
    const ended: { id: string; userId: string }[] = [];
    const listener = listenAccountEnded(postgres.pool!, (session) => ended.push(session), pino({ level: "silent" }));
    try {
      // The LISTEN is issued asynchronously: notify until it is heard.
      for (let attempt = 0; attempt < 50 && ended.length === 0; attempt++) {
        await notifyAccountEnded(postgres.db, { userId: "u1", sessionIds: ["s1", "s2"], releasedSessionIds: [] });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ended.slice(0, 2)).toEqual([
        { id: "s1", userId: "u1" },
        { id: "s2", userId: "u1" },
      ]);
    } finally {
      await listener.close();
      await postgres.dispose();
    }
  });
});
