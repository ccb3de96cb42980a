/**
 * Issue 37 §1, « A hostile app can freeze the technician's tab », end to end: a technician in Chromium takes the
 * session a hostile desktop app started (`tests/support/hostile-app.ts`: paired like the real app, from this
 * process), and the app streams for 6 s, in turn and as fast as its budgets and the acknowledgements let it:
 * - the bomb: real progressive JPEGs of 7 600 × 7 600 px (113 KB, 231 MB decoded) in a 64 × 64 rectangle,
 *   and in a 7 600 × 7 600 rectangle of a 1 280 × 720 picture: refused by the server (`frameProblem`);
 * - a full picture of 16 384 × 16 384 px with one 8 × 8 rectangle (`huge`: the canvas, not the JPEG, is the bomb):
 *   refused since the picture is bounded by an 8K screen (`SCREEN_LIMITS.maxPicturePixels`);
 * - the worst the rules allow: full 8K pictures (7 680 × 4 320, one rectangle, 65 KB), the largest one frame may
 *   carry (`pairingBurstPixels`), sent again on every acknowledgement.
 *
 * What the technician observes, with no timed assertion (figures: `node bench/jpeg-bomb.ts`):
 * - the dashboard stays usable during the stream: « Réduire », « Ouvrir le contrôle à distance » and typing in the
 *   chat field take effect, round after round;
 * - no refused frame reaches the page, no bitmap is drawn at another size than its rectangle or past 8K, and the
 *   pixels the page received and decoded stay within the pairing's budget (burst + rate × the stream's time and 1 s);
 * - the page's memory stays bounded (the largest renderer's RSS, the JS heap: far below the 4.5 GB);
 * - once the stream stops, the drawn-frame count stops growing: no backlog of old frames drawn late.
 *
 * How it fails without the fixes of 71d2093 (checked by disabling each guard in a scratch copy, see the report):
 * without the SOF check the 7 600 px bitmaps are drawn (`mismatched`, `largestDrawn`) and the renderer grows by GBs;
 * without the frames-in-flight limit and the pixel budget the 8K frames are relayed 27 times a second and the
 * decoded pixels exceed the budget; with the old viewer (every frame decoded at once, none skipped) decoding falls
 * behind and frames are still drawn seconds after the stream stopped.
 */
import { expect, test, type Page } from "@playwright/test";
import { SCREEN_LIMITS } from "#app/remote-support/screen-protocol.ts";
import { HostileApp, type StreamReport } from "#tests/support/hostile-app.ts";
import { newPage, signIn, startAreaServer, type AreaServer } from "#tests/support/soft-assist-pages.ts";
import {
  chromiumMemory,
  installDrawProbe,
  readDrawProbe,
  recordRelayed,
  type ChromiumMemory,
} from "#tests/support/viewer-probe.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-bombe-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-tech" };
const STREAM_MS = 6_000;
/** The largest renderer's resident memory allowed, MB: a few 8K bitmaps and the canvas (≈ 130 MB each) at most. */
const RENDERER_MB = 1_500;
/** The page's JS heap allowed, MB (frames are ArrayBuffers of ≤ 113 KB; two at most wait). */
const JS_HEAP_MB = 150;

let area: AreaServer;

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  area = await startAreaServer("jpeg-bomb", [TECH]);
});

test.afterAll(async () => {
  await area?.stop();
});

/** One round of a technician using the page: reduce the view, reopen it, type in the chat. */
async function exerciseDashboard(page: Page, round: number): Promise<void> {
  const remote = page.getByRole("dialog", { name: "Contrôle à distance" });
  await remote.getByRole("button", { name: "Réduire" }).click();
  await expect(remote).toBeHidden();
  await page.getByRole("button", { name: "Ouvrir le contrôle à distance" }).click();
  await expect(remote).toBeVisible();
  const message = remote.getByLabel("Votre message");
  await message.pressSequentially(`Bonjour ${round}`);
  await expect(message).toHaveValue(`Bonjour ${round}`);
  await message.fill("");
}

test("a hostile app's JPEG bombs: refused, the 8K frames within budget, the page usable, memory bounded, no backlog @desktop", async ({
  browser,
}) => {
  const tech = await newPage(browser, area.server.url);
  await installDrawProbe(tech);
  const relayed = recordRelayed(tech);
  await signIn(tech, TECH);
  const app = await HostileApp.start(area.server.url, "Marie");
  await tech.getByRole("button", { name: "Prendre en charge Marie" }).click();
  const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
  await expect(remote).toBeVisible();
  await expect.poll(() => app.isActive()).toBe(true);
  const idle = await chromiumMemory(browser, tech);

  // The stream, and meanwhile the technician uses the page, round after round, memory read after each.
  const started = Date.now();
  let report: StreamReport | null = null;
  const streaming = app.stream(["mismatch", "outside", "huge", "largest"], STREAM_MS).then((done) => (report = done));
  const during: ChromiumMemory[] = [];
  let rounds = 0;
  while (!report) {
    await exerciseDashboard(tech, ++rounds);
    during.push(await chromiumMemory(browser, tech));
  }
  await streaming;
  // What the pairing's pixel budget lets through while the stream lasts (a second more for the frames on their way).
  const budget =
    SCREEN_LIMITS.pairingBurstPixels + SCREEN_LIMITS.pairingPixelsPerSecond * ((Date.now() - started) / 1000 + 1);
  const sent = (report as StreamReport).sent;
  expect(sent.mismatch).toBeGreaterThan(20);
  expect(sent.largest).toBeGreaterThan(20);
  expect(sent.huge).toBeGreaterThan(20);
  expect(rounds).toBeGreaterThan(0);

  // No backlog: once the stream stopped, the count of drawn frames stops growing (the last relayed one drawn).
  let previous = -1;
  await expect
    .poll(
      async () => {
        const { draws } = await readDrawProbe(tech);
        const grew = draws !== previous;
        previous = draws;
        return grew;
      },
      { intervals: [1_000] },
    )
    .toBe(false);
  const settled = await readDrawProbe(tech);
  await tech.waitForTimeout(2_000);
  const after = await readDrawProbe(tech);
  expect(after.draws).toBe(settled.draws);
  expect(after.decoding).toBe(0);

  // What reached the page: only the 8K frames, as many as the pixel budget allows, each drawn at its size.
  const kinds = new Set(relayed.map((seq) => app.kindOf.get(seq)));
  expect([...kinds]).toEqual(["largest"]);
  expect(after.draws).toBeGreaterThan(0);
  expect(after.mismatched).toBe(0);
  expect(after.largestDrawn).toBeLessThanOrEqual(SCREEN_LIMITS.pairingBurstPixels);
  const relayedPixels = relayed.reduce((sum, seq) => sum + app.pixels(app.kindOf.get(seq)!), 0);
  expect(relayedPixels).toBeLessThanOrEqual(budget);
  expect(after.decodedPixels).toBeLessThanOrEqual(budget);
  expect(after.draws).toBeLessThanOrEqual(relayed.length);

  // Memory: the largest renderer and the JS heap stayed bounded, and the renderer gave back what the stream took.
  const peak = Math.max(...during.map((memory) => memory.rendererMb));
  const end = await chromiumMemory(browser, tech);
  const heap = Math.max(...during.map((memory) => memory.jsHeapMb), end.jsHeapMb);
  console.log(
    `JPEG bomb: renderer RSS ${idle.rendererMb} → max ${peak} → ${end.rendererMb} MB, JS heap max ${heap} MB; ` +
      `${rounds} rounds of use; sent ${JSON.stringify(sent)}, relayed ${relayed.length}, drawn ${after.draws}`,
  );
  expect(peak).toBeLessThan(RENDERER_MB);
  expect(heap).toBeLessThan(JS_HEAP_MB);
  app.close();
  await tech.context().close();
});
