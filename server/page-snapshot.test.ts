/** Issue 30 §2: the public pages kept on disk for the next start (`page-snapshot.ts`). */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedPage } from "./page-cache.ts";
import { createPageSnapshot, snapshotEdition, snapshotFeeder } from "./page-snapshot.ts";

const logger = pino({ level: "silent" });
const HEADERS = { "X-Content-Type-Options": "nosniff", "Permissions-Policy": "camera=()" };

describe("the pages kept on disk", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), "atelier-pages-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  it("reads back a saved page byte for byte, with its headers, for the same edition only", async () => {
    const page = await cachedPage('<!doctype html><html lang="fr"><title>Accueil</title></html>', { https: true });
    createPageSnapshot({ folder, edition: "a", logger }).save("/", page, HEADERS);
    await expect.poll(() => readdirSync(folder).length).toBe(1);
    const read = createPageSnapshot({ folder, edition: "a", logger }).read("/");
    expect(read?.identity.equals(page.identity)).toBe(true);
    expect(read?.gzip.equals(page.gzip)).toBe(true);
    expect(read?.br.equals(page.br)).toBe(true);
    expect(read).toMatchObject({ etag: page.etag, csp: page.csp, headers: HEADERS });
    expect(createPageSnapshot({ folder, edition: "b", logger }).read("/")).toBeUndefined();
    expect(createPageSnapshot({ folder, edition: "a", logger }).read("/contact")).toBeUndefined();
  });

  it("keeps the last version of a page, and ignores a damaged file", async () => {
    const snapshot = createPageSnapshot({ folder, edition: "a", logger });
    snapshot.save("/", await cachedPage("<p>avant</p>", { https: false }), HEADERS);
    snapshot.save("/", await cachedPage("<p>après</p>", { https: false }), HEADERS);
    await expect.poll(() => snapshot.read("/")?.identity.toString()).toBe("<p>après</p>");
    // Both writes done: the first cannot land after the second.
    await settled();
    expect(snapshot.read("/")?.identity.toString()).toBe("<p>après</p>");
    const [file] = readdirSync(folder);
    writeFileSync(path.join(folder, file!), '{"path":"/","edition":"a","sizes":[5,0,0]}\n<p>');
    expect(snapshot.read("/")).toBeUndefined();
    writeFileSync(path.join(folder, file!), "\u0000\u00ff pas du JSON");
    expect(snapshot.read("/")).toBeUndefined();
  });

  it("holds pages until the shared headers are known, and skips the paths it is told to", async () => {
    const snapshot = createPageSnapshot({ folder, edition: "a", logger });
    const feeder = snapshotFeeder(snapshot, /^\/services\//);
    feeder.onStore("/", await cachedPage("<p>accueil</p>", { https: false }));
    await settled();
    expect(snapshot.read("/")).toBeUndefined();
    feeder.setHeaders(HEADERS);
    feeder.onStore("/services/apple-repair", await cachedPage("<p>apple</p>", { https: false }));
    await expect.poll(() => snapshot.read("/")?.headers).toEqual(HEADERS);
    expect(snapshot.read("/services/apple-repair")).toBeUndefined();
  });
});

describe("snapshotEdition", () => {
  let build: string;
  beforeEach(() => {
    build = mkdtempSync(path.join(tmpdir(), "atelier-build-"));
    writeFileSync(path.join(build, ".build-hash"), "site-1\n");
    writeFileSync(path.join(build, ".server-hash"), "server-1\n");
  });
  afterEach(() => rmSync(build, { recursive: true, force: true }));

  const env = { PUBLIC_URL: "https://a.example.fr", PORT: 3000, LOG_LEVEL: "info", BETTER_AUTH_SECRET: "x".repeat(40) };

  it("changes with the build, the address and the settings, not with the port, the log or a secret's value", () => {
    const edition = snapshotEdition(build, env);
    expect(snapshotEdition(build, { ...env, PORT: 4000, LOG_LEVEL: "warn" })).toBe(edition);
    expect(snapshotEdition(build, { ...env, BETTER_AUTH_SECRET: "y".repeat(40) })).toBe(edition);
    expect(snapshotEdition(build, { ...env, BETTER_AUTH_SECRET: undefined })).not.toBe(edition);
    expect(snapshotEdition(build, { ...env, PUBLIC_URL: "https://b.example.fr" })).not.toBe(edition);
    expect(snapshotEdition(build, { ...env, SHOP_EMAIL: "atelier@example.fr" })).not.toBe(edition);
    writeFileSync(path.join(build, ".build-hash"), "site-2\n");
    expect(snapshotEdition(build, env)).not.toBe(edition);
  });
});
