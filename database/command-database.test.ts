import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openCommandDatabase } from "./command-database.ts";
import { DatabaseLockedError, openDatabase, type DatabaseHandle } from "./connection.ts";
import { contactRequests } from "./schema.ts";

const folders: string[] = [];
const handles: DatabaseHandle[] = [];

afterEach(async () => {
  for (const handle of handles.splice(0).reverse()) await handle.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "atelier-command-"));
  folders.push(folder);
  return folder;
}

describe("a command's database beside the server (issue 29)", () => {
  it("reaches the running server's embedded PostgreSQL, and both see each other's writes", async () => {
    const DATA_DIR = await dataFolder();
    const server = await openDatabase({ dataDir: DATA_DIR });
    handles.push(server);
    const command = await openCommandDatabase({ DATA_DIR });
    handles.push(command);
    expect(command.beside).toBe(true);
    await command.db.insert(contactRequests).values({ name: "Léa", email: "lea@exemple.fr", message: "Bonjour" });
    expect((await server.db.select().from(contactRequests)).map((row) => row.name)).toEqual(["Léa"]);
    // The command's close leaves the server's PostgreSQL running.
    await command.close();
    expect(await server.db.select().from(contactRequests)).toHaveLength(1);
  });

  it("starts the embedded PostgreSQL itself when no server runs", async () => {
    const DATA_DIR = await dataFolder();
    const command = await openCommandDatabase({ DATA_DIR });
    handles.push(command);
    expect(command.beside).toBe(false);
    expect(command.kind).toBe("embedded-postgres");
  });

  it("is refused with the French message beside a server running on PGlite", async () => {
    const DATA_DIR = await dataFolder();
    handles.push(await openDatabase({ dataDir: DATA_DIR, embedded: "pglite" }));
    const command = openCommandDatabase({ DATA_DIR, EMBEDDED_DATABASE: "pglite" });
    await expect(command).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(command).rejects.toThrow(/déjà utilisé par un autre serveur/);
  });
});
