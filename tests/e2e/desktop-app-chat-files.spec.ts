/**
 * Issue 38 §1, §2 end to end: the Linux app as a customer downloads it, started with no argument in its terminal
 * (a customer's own HOME), and a technician in Chromium who joins its session:
 * - the chat both ways: the technician's line shows in the app's terminal, the customer's answer (M, a line) in
 *   the remote view's « Discussion »;
 * - a file from the technician: the app asks the « fichiers » permission, then this file, and saves it whole in
 *   the customer's Downloads folder under its bare name; a second file declined is said « refusé »;
 * - a file from the customer (F, a path): the technician receives it with « Recevoir » and downloads it whole.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { join, newPage, signIn, startAreaServer, type AreaServer } from "#tests/support/soft-assist-pages.ts";
import { startXvfb, type XDisplay } from "#tests/support/xvfb.ts";
import { buildLinuxApp, startTerminalApp, type TerminalApp } from "#tests/support/desktop-app.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-fichiers-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-tech" };

let area: AreaServer;
let display: XDisplay;
let appBinary: string;
let home: string;
let app: TerminalApp | undefined;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  appBinary = buildLinuxApp();
  area = await startAreaServer("desktop-chat-files", [TECH]);
  display = await startXvfb(1280, 720);
  home = await mkdtemp(path.join(tmpdir(), "atelier-client-"));
  await mkdir(path.join(home, "Downloads"));
});

test.afterAll(async () => {
  app?.child.kill("SIGTERM");
  await display?.stop();
  await area?.stop();
  await rm(home, { recursive: true, force: true });
});

test.describe("chat and files with the desktop app", { tag: "@desktop" }, () => {
  test("chat both ways, a file each way with the customer's consent, one declined", async ({ browser }) => {
    app = startTerminalApp(appBinary, ["--server", area.server.url], display.display, {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
    });
    const output = app.output;
    await expect.poll(output, { timeout: 20_000 }).toContain("Votre prénom :");
    app.child.stdin.write("Marie\n");
    await expect.poll(output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
    const code = /Code de session : ([A-Z0-9]{3}) ([A-Z0-9]{3})/u.exec(output())!.slice(1).join("");

    const tech = await newPage(browser, area.server.url);
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });

    // The chat, both ways.
    await remote.getByLabel("Votre message").fill("Bonjour Marie, je suis là.");
    await remote.getByLabel("Votre message").press("Enter");
    await expect.poll(output, { timeout: 15_000 }).toContain("Bonjour Marie, je suis là.");
    app.press("m");
    app.child.stdin.write("Merci, mon imprimante ne marche plus.\n");
    const log = remote.getByRole("log", { name: "Messages de la session" });
    await expect(log.getByText("Merci, mon imprimante ne marche plus.")).toBeVisible({ timeout: 15_000 });

    // A file from the technician: the permission, then the file, both accepted in the app.
    const files = remote.getByRole("region", { name: "Fichiers" });
    const invoice = Buffer.from("%PDF-1.4\n".padEnd(300_000, "x"));
    await files.locator("input[type=file]").setInputFiles({
      name: "facture.pdf",
      mimeType: "application/pdf",
      buffer: invoice,
    });
    await expect.poll(output, { timeout: 15_000 }).toContain("Autoriser l'échange de fichiers avec le technicien ?");
    app.press("o");
    await expect.poll(output, { timeout: 15_000 }).toContain("Jean veut vous envoyer « facture.pdf »");
    app.press("o");
    const saved = path.join(home, "Downloads", "facture.pdf");
    await expect
      .poll(async () => (await readFile(saved).catch(() => Buffer.alloc(0))).equals(invoice), {
        timeout: 20_000,
      })
      .toBe(true);
    await expect(files.getByText(/facture\.pdf.*\(300 Ko\) — terminé/u)).toBeVisible({ timeout: 15_000 });
    await expect.poll(output).toContain("Enregistré dans");

    // A second file, declined.
    await files.locator("input[type=file]").setInputFiles({
      name: "autre.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("non merci"),
    });
    await expect.poll(output, { timeout: 15_000 }).toContain("veut vous envoyer « autre.txt »");
    app.press("n");
    await expect(files.getByText(/autre\.txt.* — refusé/u)).toBeVisible({ timeout: 15_000 });

    // A file from the customer: F, its path; the technician receives it.
    const report = path.join(home, "journal.txt");
    await writeFile(report, "Erreur 0x80070005 à 14:02\n".repeat(2_000));
    app.press("f");
    app.child.stdin.write(`${report}\n`);
    await expect(files.getByText(/Marie vous envoie.*journal\.txt/u)).toBeVisible({ timeout: 15_000 });
    const download = tech.waitForEvent("download");
    await files.getByRole("button", { name: "Recevoir" }).click();
    const received = await download;
    expect(received.suggestedFilename()).toBe("journal.txt");
    expect((await readFile((await received.path())!)).equals(await readFile(report))).toBe(true);

    app.child.kill("SIGTERM");
    await expect.poll(() => app!.child.exitCode, { timeout: 15_000 }).toBe(0);
    await tech.context().close();
  });
});
