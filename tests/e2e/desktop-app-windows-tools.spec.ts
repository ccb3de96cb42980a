/**
 * Issue 38 on Windows, for real: the shipped `.exe` under Wine (`wine64` on Xvfb, the test bench of
 * `tests/support/windows-app.ts` and `wine.ts`, as `desktop-app-windows.spec.ts` runs it) and a technician in
 * Chromium: the computer's facts read through Windows' system calls (its version, memory); the chat both ways; a
 * file from the technician saved in the Windows user's Downloads with the customer's consent, a file from the
 * customer (F, a Windows path) downloaded by the technician; « Redémarrer l'ordinateur » accepted: the `RunOnce`
 * value written, the « computer » restarted (every program of the prefix ended: Wine's `shutdown.exe` ends no
 * console program), the value's command rejoining the session and the value gone.
 */
import { execFile, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { join, newPage, signIn, startAreaServer, type AreaServer } from "#tests/support/soft-assist-pages.ts";
import { startXvfb, type XDisplay } from "#tests/support/xvfb.ts";
import { buildApp } from "#tests/support/desktop-app.ts";
import { FACTS_TEXTS } from "#app/remote-support/facts-protocol.ts";
import { REBOOT_MESSAGES } from "#app/remote-support/reboot-protocol.ts";
import { runUnderWine, startWinePrefix, type WinePrefix } from "#tests/support/wine.ts";
import { downloadWindowsApp, sessionCodeOf } from "#tests/support/windows-app.ts";

const run = promisify(execFile);
const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-win38-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-win" };

let area: AreaServer;
let display: XDisplay;
let wine: WinePrefix;
/** The downloaded `.exe`, as Windows names it inside the prefix. */
let exe: string;
const programs: ChildProcess[] = [];

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  buildApp("windows-x64", "windows", "x64");
  area = await startAreaServer("desktop-windows-38", [TECH]);
  display = await startXvfb(1280, 800);
  wine = await startWinePrefix(display.display);
  exe = (await downloadWindowsApp(area.server.url, wine)).exe;
});

test.afterAll(async () => {
  for (const child of programs) child.kill("SIGKILL");
  await wine?.stop();
  await display?.stop();
  await area?.stop();
});

test.describe("chat, files and facts with the Windows app under Wine", { tag: "@desktop" }, () => {
  test("the computer's facts, the chat both ways, a file each way with the customer's consent", async ({ browser }) => {
    const app = runUnderWine(wine, exe, [], { console: true });
    programs.push(app.child);
    const code = await sessionCodeOf(app, "Marie");
    const tech = await newPage(browser, area.server.url);
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    // The computer's facts, read by the Windows app through its system calls.
    const facts = remote.getByRole("region", { name: FACTS_TEXTS.heading });
    await expect(facts).toContainText(/Windows \d+/u, { timeout: 15_000 });
    await expect(facts).toContainText(/\d+(,\d+)? (Go|Mo)/u);

    // The chat both ways, a file each way with the customer's consent.
    await remote.getByLabel("Votre message").fill("Bonjour Marie, je regarde.");
    await remote.getByLabel("Votre message").press("Enter");
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Bonjour Marie, je regarde.");
    app.type("m");
    app.type("Merci, c'est l'imprimante.\r");
    const log = remote.getByRole("log", { name: "Messages de la session" });
    await expect(log.getByText("Merci, c'est l'imprimante.")).toBeVisible({ timeout: 15_000 });
    const files = remote.getByRole("region", { name: "Fichiers" });
    const invoice = Buffer.from("%PDF-1.4\n".padEnd(200_000, "x"));
    await files
      .locator("input[type=file]")
      .setInputFiles({ name: "facture.pdf", mimeType: "application/pdf", buffer: invoice });
    await expect
      .poll(app.output, { timeout: 15_000 })
      .toContain("Autoriser l'échange de fichiers avec le technicien ?");
    app.type("o");
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Jean veut vous envoyer « facture.pdf »");
    app.type("o");
    // The Windows user's Downloads folder (SHGetKnownFolderPath), wherever Wine keeps it.
    const savedInvoice = () => {
      const users = path.join(wine.prefix, "drive_c", "users");
      for (const user of readdirSync(users).filter((name) => name !== "Public")) {
        const file = path.join(users, user, "Downloads", "facture.pdf");
        if (existsSync(file)) return readFileSync(file);
      }
      return Buffer.alloc(0);
    };
    await expect.poll(() => savedInvoice().equals(invoice), { timeout: 20_000 }).toBe(true);
    await expect(files.getByText(/facture\.pdf.* — terminé/u)).toBeVisible({ timeout: 15_000 });
    const journal = "Erreur 0x80070005 à 14:02\r\n".repeat(1_000);
    writeFileSync(path.join(wine.prefix, "drive_c", "journal.txt"), journal);
    app.type("f");
    app.type("C:\\journal.txt\r");
    await expect(files.getByText(/Marie vous envoie.*journal\.txt/u)).toBeVisible({ timeout: 15_000 });
    const download = tech.waitForEvent("download");
    await files.getByRole("button", { name: "Recevoir" }).click();
    const downloaded = await download;
    expect(downloaded.suggestedFilename()).toBe("journal.txt");
    expect(readFileSync((await downloaded.path())!, "utf8")).toBe(journal);

    app.type("\u0003");
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Appuyez sur Entrée pour fermer cette fenêtre.");
    app.type("\r");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
    await tech.context().close();
  });
});

test.describe("the Windows app restarting the computer under Wine", { tag: "@desktop" }, () => {
  test("the customer accepts, the app registers in RunOnce and asks shutdown.exe; at the next start it rejoins, and RunOnce is empty", async ({
    browser,
  }) => {
    const runOnce = ["reg", "query", "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce"];
    const registry = async () =>
      (await run(wine.wine, runOnce, { env: wine.env, timeout: 30_000 }).catch(() => ({ stdout: "" }))).stdout;
    const app = runUnderWine(wine, exe, [], { console: true, keepConsole: true });
    programs.push(app.child);
    const code = await sessionCodeOf(app, "Lucie");
    const tech = await newPage(browser, area.server.url);
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });

    await remote.getByRole("button", { name: REBOOT_MESSAGES.button }).click();
    await tech
      .getByRole("dialog", { name: REBOOT_MESSAGES.confirmTitle })
      .getByRole("button", { name: REBOOT_MESSAGES.confirmButton })
      .click();
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Appuyez sur O pour accepter le redémarrage");
    app.type("o");
    // Registered for the next sign-in, then Windows' own shutdown.exe was asked (under Wine it ends no console
    // program): the test restarts the « computer » itself, every program of the prefix ended at once.
    await expect.poll(registry, { timeout: 20_000 }).toContain("AtelierAssistanceReprise");
    await expect(remote.getByTestId("reboot").getByText(REBOOT_MESSAGES.restarting)).toBeVisible({ timeout: 20_000 });
    await expect.poll(app.output, { timeout: 15_000 }).toContain("L'ordinateur va redémarrer");
    await wine.restart();

    // « The next sign-in »: what RunOnce says, run as Windows runs it (no console of ours).
    const entry = /AtelierAssistanceReprise\s+REG_SZ\s+(.+)$/mu.exec(await registry())?.[1]?.trim();
    expect(entry).toBeTruthy();
    const resumed = runUnderWine(wine, "cmd", ["/c", entry!], { console: false });
    programs.push(resumed.child);
    await expect(remote.getByTestId("reboot").getByText(REBOOT_MESSAGES.back)).toBeVisible({ timeout: 45_000 });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible();
    await expect.poll(registry, { timeout: 20_000 }).not.toContain("AtelierAssistanceReprise");
    await tech.context().close();
  });
});
