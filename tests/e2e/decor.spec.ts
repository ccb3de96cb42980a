/** Particle background and hero video (issue 2): density, pause, reduced motion, no layout shift. */
import { expect, test, type Page } from "@playwright/test";

const canvas = (page: Page) => page.getByTestId("particules");

// The other specs run under reduced motion (playwright.config.ts); the animation is what this one tests.
test.use({ reducedMotion: "no-preference" });

test.describe("particle background", () => {
  test("has one particle per 15 000 px², recomputed on resize, and is hidden from assistive tech", async ({ page }) => {
    await page.goto("/");
    const area = await page.evaluate(() => window.innerWidth * window.innerHeight);
    await expect(canvas(page)).toHaveAttribute("data-particles", String(Math.floor(area / 15_000)));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect(canvas(page)).toHaveAttribute("aria-hidden", "true");
    await expect(canvas(page)).toHaveAttribute("data-running", "true");
    await page.setViewportSize({ width: 1600, height: 900 });
    await expect
      .poll(async () => Number(await canvas(page).getAttribute("data-particles")))
      .toBe(Math.floor((await page.evaluate(() => window.innerWidth * window.innerHeight)) / 15_000));
    expect(Number(await canvas(page).getAttribute("data-particles"))).toBeGreaterThan(Math.floor(area / 15_000));
  });

  test("pauses while the tab is hidden and resumes when visible", async ({ page }) => {
    await page.goto("/");
    await expect(canvas(page)).toHaveAttribute("data-running", "true");
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    await setHidden(true);
    await expect(canvas(page)).toHaveAttribute("data-running", "false");
    await setHidden(false);
    await expect(canvas(page)).toHaveAttribute("data-running", "true");
  });

  test("stays still under prefers-reduced-motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/");
    await expect(canvas(page)).toHaveAttribute("data-particles", /\d+/);
    await expect(canvas(page)).not.toHaveAttribute("data-running", "true");
  });
});

test.describe("sales hero video", () => {
  test("plays muted, looping and inline, from this server only", async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(baseURL!)) foreign.push(request.url());
    });
    await page.goto("/sales");
    const video = page.getByTestId("hero-video");
    await expect(video).toBeAttached();
    expect(
      await video.evaluate((v: HTMLVideoElement) => ({
        muted: v.muted,
        loop: v.loop,
        inline: v.playsInline,
        poster: v.poster,
      })),
    ).toMatchObject({ muted: true, loop: true, inline: true, poster: expect.stringContaining("/media/") });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 && !v.paused)).toBe(true);
    await page.getByRole("button", { name: "Mettre l'animation en pause" }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    expect(foreign).toEqual([]);
  });

  test("is replaced by its poster under prefers-reduced-motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/sales");
    await expect(page.getByTestId("hero-video-poster")).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(page.getByTestId("hero-video")).toHaveCount(0);
  });
});

for (const path of ["/", "/sales"]) {
  test(`${path} loads without layout shift`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 500);
        }),
    );
    expect(shift).toBeLessThan(0.01);
  });
}
