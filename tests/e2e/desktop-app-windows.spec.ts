/**
 * Issue 36 §2: the Windows app for real. The `.exe` a customer downloads (built by the same command, served by
 * the test server with its address written in) runs under Wine (`wine64`, Debian's 8.0 here) on Xvfb, in a
 * fresh prefix with the test-only ProcessPrng shim when Wine is older than 9 (`tests/support/wine.ts`). Its
 * console is a pseudo-terminal, as a customer's console window; a technician works in Chromium.
 *
 * What a customer and a technician observe: `--version` and `--help` (the help names the console, since Wine
 * has no WebView2, and says so) with standard input a pipe; the session code; the technician's picture shows
 * Wine's Notepad with its known text at its place; control allowed in the app, a click and AZERTY typing with
 * accents arriving exactly in Notepad (read back through Wine's clipboard, which Wine shares with the X
 * `CLIPBOARD` selection); the clipboard both ways; seeing withdrawn → no frame reaches the technician; Ctrl+C
 * ends the session and the app, and nothing stays in `%TEMP%`. Issue 38's tools (facts, chat, files, restart)
 * under Wine: `desktop-app-windows-tools.spec.ts`.
 *
 * Figures printed (issue 36 « Figures »): launch → code, join → first picture, a click → the picture showing
 * its effect, CPU and RSS of the app while pictures flow; the download's size.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  join,
  newPage,
  signIn,
  startAreaServer,
  violations,
  type AreaServer,
} from "#tests/support/soft-assist-pages.ts";
import { startXvfb, type XDisplay } from "#tests/support/xvfb.ts";
import { buildApp, typeOnFrenchKeyboard } from "#tests/support/desktop-app.ts";
import { SAS_REASON_WINDOWS } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { blueShare, canvasDarkest, canvasPixel, findTextLine } from "#tests/support/app-picture-probes.ts";
import { runUnderWine, startWinePrefix, type WinePrefix, type WineProgram } from "#tests/support/wine.ts";
import {
  appUsage,
  downloadWindowsApp,
  openNotepad,
  sessionCodeOf,
  xClipboard as xClipboardOf,
  xtool as xtoolOn,
} from "#tests/support/windows-app.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-win-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-win" };
const SCREEN = { width: 1280, height: 800 };
const NOTE = "Atelier Wine";

let area: AreaServer;
let display: XDisplay;
let wine: WinePrefix;
/** The downloaded `.exe`, as Windows names it inside the prefix. */
let exe: string;
let notepad: WineProgram;
/** Notepad's window on the X screen, px. */
let notepadBox: { x: number; y: number; width: number; height: number };
const programs: ChildProcess[] = [];
const figures: string[] = [];

test.describe.configure({ mode: "serial", timeout: 180_000 });

/** An X client tool on the test display. */
const xtool = (file: string, args: readonly string[]) => xtoolOn(display.display, file, args);
const xClipboard = () => xClipboardOf(display.display);

test.beforeAll(async () => {
  test.setTimeout(300_000);
  buildApp("windows-x64", "windows", "x64");
  area = await startAreaServer("desktop-windows", [TECH]);
  display = await startXvfb(SCREEN.width, SCREEN.height);
  wine = await startWinePrefix(display.display);
  const downloaded = await downloadWindowsApp(area.server.url, wine);
  exe = downloaded.exe;
  figures.push(downloaded.figure);
  const opened = await openNotepad(wine, display.display, NOTE);
  notepad = opened.notepad;
  programs.push(notepad.child);
  notepadBox = opened.box;
});

test.afterAll(async () => {
  if (figures.length) console.log(`Figures (Windows sous ${wine?.version}) :\n  ${figures.join("\n  ")}`);
  for (const child of programs) child.kill("SIGKILL");
  await wine?.stop();
  await display?.stop();
  await area?.stop();
});

test.describe("the Windows app under Wine", { tag: "@desktop" }, () => {
  test("--version and --help with standard input a pipe; the help names the console and why", async () => {
    const version = runUnderWine(wine, exe, ["--version"], { console: false });
    programs.push(version.child);
    await expect
      .poll(version.output, { timeout: 30_000 })
      .toMatch(/^Assistance à distance de l'Atelier \d+\.\d+\.\d+/u);
    await expect.poll(() => version.child.exitCode, { timeout: 15_000 }).toBe(0);

    const help = runUnderWine(wine, exe, ["--help"], { console: false });
    programs.push(help.child);
    await expect.poll(() => help.child.exitCode, { timeout: 30_000 }).toBe(0);
    const text = help.output().replace(/\s+/g, " ");
    expect(text).toContain("Interface : ce terminal (fenêtre indisponible : WebView2 n'est pas installé");
    expect(text).toContain(path.win32.basename(exe));
    // zenity exists on Linux only: the help of the Windows app does not offer it.
    expect(text).toContain("--interface NOM fenetre ou terminal");
    expect(text).not.toContain("zenity");

    // A pipe as standard input (a script, a launcher): the first question is read from it, and the code shows.
    const piped = runUnderWine(wine, exe, [], { console: false });
    programs.push(piped.child);
    await expect.poll(piped.output, { timeout: 30_000 }).toContain("Votre prénom :");
    piped.type("Lucie\n");
    await expect.poll(piped.output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
    // No --server: the address is the one this server wrote into the download.
    expect(piped.output()).toContain(`Serveur : ${area.server.url}`);
    piped.child.stdin.end();
    piped.child.kill("SIGINT");
    await expect
      .poll(() => piped.child.exitCode !== null || piped.child.signalCode !== null, { timeout: 15_000 })
      .toBe(true);
  });

  test("code, picture, control with AZERTY accents, clipboard both ways, seeing withdrawn, Ctrl+C", async ({
    browser,
  }) => {
    const launched = Date.now();
    const app = runUnderWine(wine, exe, [], { console: true });
    programs.push(app.child);
    await expect.poll(app.output, { timeout: 30_000 }).toContain("Votre prénom :");
    app.type("Marie\r");
    await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
    figures.push(`lancement → code affiché : ${Date.now() - launched} ms`);
    const code = /Code de session : ([A-Z0-9]{3}) ([A-Z0-9]{3})/u.exec(app.output())!.slice(1).join("");

    const tech = await newPage(browser, area.server.url);
    await tech.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: area.server.url });
    let framesSeen = 0;
    tech.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" && payload.includes('"screen:frame"')) framesSeen += 1;
      }),
    );
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    // The customer allows seeing the screen: Notepad, white, with its dark text, where X has it.
    await expect.poll(app.output).toContain("V : autoriser le technicien à voir l'écran.");
    app.type("v");
    const allowed = Date.now();
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", SCREEN.width, { timeout: 20_000 });
    figures.push(`écran autorisé → première image chez le technicien : ${Date.now() - allowed} ms`);
    const inside = { x: notepadBox.x + notepadBox.width / 2, y: notepadBox.y + notepadBox.height - 60 };
    await expect
      .poll(async () => Math.min(...(await canvasPixel(tech, inside.x, inside.y))), { timeout: 15_000 })
      .toBeGreaterThan(220);
    expect(await canvasDarkest(tech, notepadBox.x, notepadBox.y, 200, 60)).toBeLessThan(100);
    expect(await violations(tech)).toEqual([]);

    // Control, as a customer would: C once the app says the technician asks for it.
    const toggle = remote.getByRole("button", { name: "Envoyer souris et clavier" });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Le technicien demande la main");
    app.type("c");
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible({ timeout: 15_000 });

    // A double click on the first word selects it: the picture shows the selection (dark blue).
    const canvas = (await tech.getByTestId("app-screen").boundingBox())!;
    const scale = Math.min(canvas.width / SCREEN.width, canvas.height / SCREEN.height);
    const left = canvas.x + (canvas.width - SCREEN.width * scale) / 2;
    const top = canvas.y + (canvas.height - SCREEN.height * scale) / 2;
    const onPicture = (x: number, y: number) => ({ x: left + x * scale, y: top + y * scale });
    const firstLine = await findTextLine(tech, notepadBox);
    // « Atelier » starts 7 px into the window.
    const word = onPicture(firstLine.x + 20, firstLine.y);
    const wordBox = [firstLine.x + 8, firstLine.y - 4, 40, 8] as const;
    // Black letters on white: nothing blue before the double click.
    expect(await blueShare(tech, ...wordBox)).toBeLessThan(0.05);
    const clicked = Date.now();
    await tech.mouse.dblclick(word.x, word.y);
    // Notepad's selection: white letters on a blue band across the word (Wine's highlight, #3399ff). The blue share
    // of the word's box is usually over 40 %; two CI rehearsals on a loaded machine read 18 % and 25 % (cause not
    // found: the JPEG quality is fixed, the picture was not kept): a clear rise from nothing is what is asserted.
    await expect.poll(() => blueShare(tech, ...wordBox)).toBeGreaterThan(0.12);
    figures.push(`double-clic du technicien → sélection visible dans l'image : ${Date.now() - clicked} ms`);

    // Typing at the end, on a French keyboard, then everything copied in Notepad: read from the X clipboard.
    await tech.keyboard.press("Control+End");
    await tech.keyboard.press("Enter");
    await typeOnFrenchKeyboard(tech, "Bonjour Wine 123 éàç");
    await tech.keyboard.press("Control+a");
    await tech.keyboard.press("Control+c");
    await expect.poll(xClipboard, { timeout: 15_000 }).toBe(`${NOTE}\n\nBonjour Wine 123 éàç`);

    // Customer → technician: P sends what Notepad copied.
    app.type("p");
    await expect.poll(app.output).toContain("Presse-papiers envoyé au technicien");
    const received = remote.getByRole("textbox", { name: /^Reçu du client \(Marie\)/u });
    await expect(received).toHaveValue(/Bonjour Wine 123 éàç$/u);

    // Technician → customer: pasted into Notepad with Ctrl+V, after the text is on Windows' clipboard.
    await tech.evaluate(() => navigator.clipboard.writeText("Collé par l'atelier — 42 €"));
    await tech.keyboard.press("Control+End");
    await remote.getByRole("button", { name: "Coller chez le client" }).click();
    await expect(remote.getByRole("status").filter({ hasText: /^Texte collé chez le client/u })).toBeVisible();
    await expect.poll(xClipboard).toBe("Collé par l'atelier — 42 €");
    // Back into the picture (the button had the focus, and holds it for Ctrl+Alt+Suppr below).
    const blank = onPicture(notepadBox.x + notepadBox.width / 2, notepadBox.y + notepadBox.height - 80);
    await tech.mouse.click(blank.x, blank.y);

    // While pictures flow (the technician types), the app's CPU and memory.
    const before = appUsage();
    const framesBefore = framesSeen;
    const started = Date.now();
    for (let round = 0; round < 10; round++) await tech.keyboard.type("abcdefghij", { delay: 50 });
    const after = appUsage();
    if (before && after) {
      const seconds = (Date.now() - started) / 1000;
      figures.push(
        `pendant la frappe (${((framesSeen - framesBefore) / seconds).toFixed(1)} images/s reçues) : ` +
          `CPU ${((100 * (after.cpuSeconds - before.cpuSeconds)) / seconds).toFixed(0)} % d'un cœur, RSS ${after.rssMb.toFixed(0)} Mo`,
      );
    }

    // Ctrl+Alt+Suppr: Windows keeps it for itself; both sides read why.
    await remote.getByRole("button", { name: "Ctrl+Alt+Suppr" }).click();
    await expect(remote.getByRole("status").filter({ hasText: SAS_REASON_WINDOWS })).toBeVisible();
    await expect.poll(() => app.output().replace(/\s+/g, " ")).toContain(SAS_REASON_WINDOWS);
    await tech.mouse.click(blank.x, blank.y);

    // Seeing withdrawn in the app: a change on the screen sends nothing.
    app.type("v");
    await expect(
      remote.getByText("Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel."),
    ).toBeVisible({ timeout: 15_000 });
    const framesWithdrawn = framesSeen;
    await tech.keyboard.press("Control+End");
    await tech.keyboard.type(" encore");
    await tech.waitForTimeout(1_500);
    expect(framesSeen).toBe(framesWithdrawn);

    // Ctrl+C in the console: the session ends for the technician, the app says so and waits for Entrée.
    app.type("\u0003");
    await expect
      .poll(app.output, { timeout: 15_000 })
      .toContain("Arrêt demandé : le technicien n'a plus accès à cet ordinateur.");
    await expect(remote).toBeHidden({ timeout: 15_000 });
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Appuyez sur Entrée pour fermer cette fenêtre.");
    app.type("\r");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
    // Nothing left in %TEMP%: the cleaner removes the native files once the app has exited.
    await expect
      .poll(() => readdirSync(wine.temp()).filter((name) => name.startsWith("atelier-")), { timeout: 20_000 })
      .toEqual([]);
  });
});

test.describe("the Windows app relaunched as administrator under Wine", { tag: "@desktop" }, () => {
  test("the technician asks, the customer accepts, the new process rejoins the same session with consents asked again", async ({
    browser,
  }) => {
    // keepConsole: the first process's exit code shows in its console (« [sortie 0] ») once it has gone.
    // Wine gives every program an administrator's token: the app is told to report itself limited, as it is
    // on Windows for a customer who is not the built-in administrator.
    const app = runUnderWine(wine, exe, [], { console: true, keepConsole: true, env: { ATELIER_ELEVATION: "limite" } });
    programs.push(app.child);
    const code = await sessionCodeOf(app, "Paul");
    const tech = await newPage(browser, area.server.url);
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    app.type("v");
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", SCREEN.width, { timeout: 20_000 });

    // Not elevated: the technician is told, and asks.
    await expect(remote.getByText(ELEVATION_MESSAGES.notElevated, { exact: false })).toBeVisible({ timeout: 15_000 });
    await remote.getByRole("button", { name: "Relancer en administrateur" }).click();
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Appuyez sur A pour accepter");
    const accepted = Date.now();
    app.type("a");
    // Under Wine `runas` simply starts the program: the new process rejoins, the first one exits without ending
    // the session, and nothing is allowed any more until the customer allows it again.
    await expect.poll(app.output, { timeout: 30_000 }).toContain("[sortie 0]");
    await expect(
      remote.getByText("Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel."),
    ).toBeVisible({ timeout: 30_000 });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible();
    figures.push(`« A » accepté → le logiciel relancé a rejoint la session : ${Date.now() - accepted} ms`);
    // As on Windows, the relaunched program has a console window of its own: the customer allows seeing there.
    const consoleWindow = (
      await xtool("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "atelier-assistance"])
    )
      .trim()
      .split("\n")[0]!;
    const pressInConsole = async (...keys: string[]) => {
      await xtool("/usr/bin/xdotool", ["windowfocus", "--sync", consoleWindow]);
      await xtool("/usr/bin/xdotool", ["key", "--delay", "80", ...keys]);
    };
    await pressInConsole("v");
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", SCREEN.width, { timeout: 20_000 });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible();

    // Ctrl+C in its console stops the relaunched app: the session ends, nothing stays in %TEMP%.
    await pressInConsole("ctrl+c");
    await expect(remote).toBeHidden({ timeout: 15_000 });
    // Its console window is its own: it waits for Entrée so the last words can be read, then closes. (The
    // console's text cannot be read from here: Entrée is pressed until the window goes.)
    const consoleOpen = async () =>
      (await xtool("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "atelier-assistance"]).catch(() => ""))
        .trim()
        .includes(consoleWindow);
    await expect
      .poll(async () => (await consoleOpen()) && (await pressInConsole("Return").then(() => consoleOpen())), {
        timeout: 20_000,
        intervals: [1_000],
      })
      .toBe(false);
    await expect
      .poll(() => readdirSync(wine.temp()).filter((name) => name.startsWith("atelier-")), { timeout: 30_000 })
      .toEqual([]);
  });
});
