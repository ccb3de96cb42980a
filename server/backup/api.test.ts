/**
 * Issue 29: the backup status reaches the manager only (`GET /api/backups/status`), failures included.
 * Issue 40: the manager downloads the newest backup after typing their password again (wrong ones refused,
 * then limited), and the copy off the server (downloaded or declared) is noted in the status.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupStatusText } from "#app/backups/backup-status.ts";
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

describe("copying the newest backup off the server (issue 40)", () => {
  const download = (cookie: string, body: unknown) =>
    request(server.url)
      .post("/api/backups/latest")
      .set("Cookie", cookie)
      .set("Origin", server.url)
      .send(body as object);

  it("is the manager's, with their password, and says when there is nothing to download", async () => {
    expect((await download(technician.cookie, { password: technician.password })).status).toBe(403);
    const empty = await download(manager.cookie, { password: manager.password });
    expect(empty.status).toBe(404);
    expect(empty.body.message).toMatch(/^Aucune sauvegarde à télécharger pour l'instant/);
    const missing = await download(manager.cookie, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: "Saisissez votre mot de passe." });
  });

  it("streams the newest file after the right password, and notes the copy; a wrong one gets nothing", async () => {
    const dir = path.join(database.dataDir, "backups");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "sauvegarde-2026-11-30-030000.gz"), "ancienne");
    await writeFile(path.join(dir, "sauvegarde-2026-12-01-030000.gz"), Buffer.from("la plus récente"));

    const wrong = await download(manager.cookie, { password: "pas-le-bon-mot-de-passe" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: "Mot de passe incorrect : la sauvegarde n'a pas été téléchargée." });
    expect((await status(manager.cookie)).body.lastCopyAt).toBeNull();

    const file = await download(manager.cookie, { password: manager.password })
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("application/gzip");
    expect(file.headers["content-disposition"]).toBe('attachment; filename="sauvegarde-2026-12-01-030000.gz"');
    expect(file.headers["cache-control"]).toBe("no-store");
    expect((file.body as Buffer).toString()).toBe("la plus récente");
    await expect.poll(async () => (await status(manager.cookie)).body.lastCopyKind).toBe("download");

    const declared = await request(server.url)
      .post("/api/backups/copied")
      .set("Cookie", manager.cookie)
      .set("Origin", server.url);
    expect(declared.status).toBe(200);
    expect(declared.body).toMatchObject({ lastCopyKind: "declared", hour: 3 });
    expect(Date.now() - Date.parse(declared.body.lastCopyAt)).toBeLessThan(60_000);
  });

  it("waits after 5 wrong passwords in 15 minutes (one was typed above), in French, even for the right one", async () => {
    const answers = [];
    for (let tried = 0; tried < 4; tried++) answers.push(await download(manager.cookie, { password: `faux-${tried}` }));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
    const limited = await download(manager.cookie, { password: manager.password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.body).toEqual({ message: "Trop de mots de passe incorrects. Réessayez dans 15 minutes." });
  });
});
