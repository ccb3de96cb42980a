/**
 * Issue 30, the slot picker of /rendez-vous and /rendez-vous/gerer, driven as a person does: a day,
 * then a time; the chosen slot and its length repeated beside the button; booked, then moved the
 * same way, with JavaScript and without it. A choice and a name entered before hydration survive it,
 * hydration moves nothing (CLS 0), the keyboard works (arrow keys in each group), and axe finds
 * nothing, at desktop and mobile widths. Screenshots go to the test's output folder.
 *
 * Issue 40: the booking page's first screen, on a 390×844 phone and a 1366×768 laptop: one heading, the
 * price's terms said once, and the first day's times in view without scrolling. On the appointment's page
 * the move grid is folded under « Déplacer le rendez-vous ».
 */
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { formatSlotLength } from "#app/booking/slot-choice.ts";
import { violations } from "../support/axe.ts";
import { enhanced } from "../support/enhanced.ts";

// Booking holds the slot's lock and queues mails in one transaction: seconds on 2 busy cores.
test.describe.configure({ timeout: 90_000 });
const SLOW = { timeout: 20_000 };

/** What the picker says a slot lasts: the code's length (the e2e server keeps the default settings). */
const LENGTH = formatSlotLength(DEFAULT_BOOKING_SETTINGS.slotMinutes);

/** The day radios (visually hidden; their chips are labels): « mardi 24 novembre 2026, 12 créneaux libres ». */
const dayRadios = (page: Page) => page.getByRole("radio", { name: /^\S+ \d+ \S+ \d{4}, \d+ créneaux? libres?$/ });

/** The chip (a label) of a day radio, and the full date it speaks: « mardi 24 novembre 2026 ». */
async function chipOf(page: Page, radio: Locator): Promise<{ chip: Locator; spoken: string }> {
  const chip = page.locator(`label[for="${await radio.getAttribute("id")}"]`);
  return { chip, spoken: (await chip.locator(".sr-only").textContent())!.split(",")[0]! };
}

/** Clicks the chip of the `index`-th day offering slots; answers its spoken date. */
async function pickDay(page: Page, index: number): Promise<string> {
  const radio = dayRadios(page).nth(index);
  const { chip, spoken } = await chipOf(page, radio);
  await chip.click();
  await expect(radio).toBeChecked();
  return spoken;
}

/** The free times of the day shown, whose legend is its date. */
const timesOf = (page: Page, spokenDay: string) =>
  page.getByRole("group", { name: spokenDay, exact: true }).getByRole("radio");

/** Clicks the `index`-th free time of the day shown (modulo their number); answers « … à 09:30 ». */
async function pickTime(page: Page, spokenDay: string, index: number): Promise<string> {
  const times = timesOf(page, spokenDay);
  await expect(times.first()).toBeVisible();
  const time = times.nth(index % (await times.count()));
  await time.click();
  await expect(time).toBeChecked();
  return time.evaluate((input: HTMLInputElement) => input.labels![0]!.textContent!);
}

/** Different slots per project and mode: the specs share one server, and each slot has one place. */
function offset(info: TestInfo, javascript: boolean): number {
  return (info.project.name === "mobile" ? 6 : 0) + (javascript ? 0 : 3);
}

/**
 * Resolves once the slot choice's enhancer is attached to the page's form (issue 30, decision 029: an
 * islands page; before that the picker works with CSS alone and the form posts natively).
 */
async function slotsEnhanced(page: Page): Promise<void> {
  await enhanced(page, "main form[data-enhance~=slots]", "slots");
}

/** The legend of the manage page's slot picker (issue 40: under the fold « Déplacer le rendez-vous »). */
const MOVE_LEGEND = "Choisissez un nouveau créneau";

/** Opens the manage page's fold « Déplacer le rendez-vous »: its slots are hidden until then (issue 40). */
async function openMove(page: Page): Promise<void> {
  const picker = page.getByRole("group", { name: MOVE_LEGEND });
  await expect(picker).toBeHidden();
  await page.getByText("Déplacer le rendez-vous", { exact: true }).click();
  await expect(picker).toBeVisible();
}

async function fillContact(page: Page, name: string): Promise<void> {
  const suffix = Math.random().toString(36).slice(2, 8);
  await page.getByLabel("Nom").fill(name);
  await page.getByLabel("Adresse e-mail").fill(`creneau-${suffix}@exemple.fr`);
  // One phone per booking: the caps count upcoming appointments per phone (issue 28 §5).
  await page.getByLabel("Téléphone").fill(`06 ${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`);
}

async function shoot(page: Page, info: TestInfo, name: string): Promise<void> {
  // The form only: a full page doubles the fixed header where the page was scrolled.
  await page
    .locator("main form")
    .first()
    .screenshot({ path: info.outputPath(`${name}-${info.project.name}.png`) });
}

for (const javascript of [true, false]) {
  test.describe(javascript ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: javascript });

    test("a day, then a time: booked, then moved the same way", async ({ page }, info) => {
      await page.goto("/rendez-vous");
      if (javascript) await slotsEnhanced(page);
      const confirm = page.getByRole("button", { name: "Confirmer le rendez-vous" });
      // The first day with a free place is open; only its times are offered.
      await expect(dayRadios(page).first()).toBeChecked();
      await shoot(page, info, `reservation-${javascript ? "js" : "sans-js"}`);

      const day = await pickDay(page, 1);
      const slot = await pickTime(page, day, offset(info, javascript));
      // Only the picked day's times are on the page, never the whole week's.
      expect(await page.getByRole("radio", { name: / à \d\d:\d\d$/ }).count()).toBe(await timesOf(page, day).count());
      if (javascript) {
        await expect(confirm).toHaveAccessibleDescription(`Votre créneau : ${slot} (${LENGTH})`);
      } else {
        await expect(page.getByText("Créneau choisi ci-dessus.")).toBeVisible();
        await expect(page.getByText("Aucun créneau choisi")).toBeHidden();
      }
      await expect(page.getByText(`Un rendez-vous dure ${LENGTH}.`).or(page.getByText(`(${LENGTH})`))).toBeVisible();
      // axe runs in the page: with scripts off it never answers (the same markup is checked with them on).
      if (javascript) expect(await violations(page)).toEqual([]);
      await shoot(page, info, `reservation-choisi-${javascript ? "js" : "sans-js"}`);

      await fillContact(page, "Inès Créneau");
      await confirm.click();
      await expect(page.getByRole("status")).toContainText("Votre rendez-vous est enregistré.", SLOW);
      await expect(page.getByText(slot, { exact: false }).first()).toBeVisible();

      // Moved: the fold opened, another day, then a time, then the button.
      await openMove(page);
      const moveDay = await pickDay(page, 0);
      const moveTo = await pickTime(page, moveDay, offset(info, javascript) + 1);
      if (javascript)
        await expect(page.getByText(/^Votre créneau :/)).toHaveText(`Votre créneau : ${moveTo} (${LENGTH})`);
      if (javascript) expect(await violations(page)).toEqual([]);
      await shoot(page, info, `deplacement-${javascript ? "js" : "sans-js"}`);
      await page.getByRole("button", { name: "Déplacer à ce créneau" }).click();
      // Every spec books on one server: another may take that slot first. The page then says so and offers the
      // nearest free ones, and a customer takes one of those.
      const moved = page.getByRole("status").filter({ hasText: "Votre rendez-vous est déplacé." });
      const taken = page.getByRole("alert").filter({ hasText: "vient d'être réservé" });
      await expect(moved.or(taken)).toBeVisible(SLOW);
      let movedTo = moveTo;
      if (await taken.isVisible()) {
        const nearest = page.getByRole("group", { name: MOVE_LEGEND }).locator("ul").first();
        const first = nearest.getByRole("radio").first();
        await first.check();
        movedTo = (await first.evaluate((input: HTMLInputElement) => input.labels![0]!.textContent!)).trim();
        await page.getByRole("button", { name: "Déplacer à ce créneau" }).click();
      }
      await expect(moved).toBeVisible(SLOW);
      await expect(page.getByText(movedTo.split(" ").at(-1)!, { exact: false }).first()).toBeVisible();
    });
  });
}

test("the keyboard: Tab to the days, arrows to another day, Tab to its times, arrows among them @desktop", async ({
  page,
}, info) => {
  await page.goto("/rendez-vous");
  await slotsEnhanced(page);
  const first = dayRadios(page).first();
  await first.focus();
  await page.keyboard.press("ArrowRight");
  const second = dayRadios(page).nth(1);
  await expect(second).toBeChecked();
  await expect(second).toBeFocused();
  await shoot(page, info, "clavier-jour");
  const { spoken } = await chipOf(page, second);
  await page.keyboard.press("Tab");
  const times = timesOf(page, spoken);
  await expect(times.first()).toBeFocused();
  await page.keyboard.press("Space");
  await expect(times.first()).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(times.nth(1)).toBeChecked();
  // Back to the days and on to a third one: the time left behind is unchecked, so Tab reaches the new day's times.
  await page.keyboard.press("Shift+Tab");
  await expect(second).toBeFocused();
  await page.keyboard.press("ArrowRight");
  const third = dayRadios(page).nth(2);
  await expect(third).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(page.locator("input[name=slot]:focus")).toBeVisible();
  await expect(page.locator("input[name=slot]:checked")).toHaveCount(0);
});

test("a day, a time and a name chosen before hydration survive it; hydration moves nothing", async ({ page }, info) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: "layout-shift", buffered: true });
    (window as unknown as { shifts: number[] }).shifts = shifts;
  });
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto("/rendez-vous", { waitUntil: "commit" });
  const day = await pickDay(page, 1);
  const slot = await pickTime(page, day, offset(info, true) + 2);
  await page.getByLabel("Nom").fill("Avant Hydratation");
  release();
  await slotsEnhanced(page);
  await expect(dayRadios(page).nth(1)).toBeChecked();
  await expect(page.getByRole("radio", { name: slot })).toBeChecked();
  await expect(page.getByLabel("Nom")).toHaveValue("Avant Hydratation");
  await expect(page.getByRole("button", { name: "Confirmer le rendez-vous" })).toHaveAccessibleDescription(
    `Votre créneau : ${slot} (${LENGTH})`,
  );
  // The picker's layout is the server's: nothing shifts when the script takes the form over.
  await page.waitForTimeout(600);
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
  // No error either.
  expect(errors).toEqual([]);
});

test("another week: its first free day is open, and a time there is the one repeated @desktop", async ({
  page,
}, info) => {
  await page.goto("/rendez-vous");
  await slotsEnhanced(page);
  const firstWeek = await dayRadios(page).first().getAttribute("value");
  await pickTime(page, (await chipOf(page, dayRadios(page).first())).spoken, 0);
  await page.getByRole("link", { name: "Semaine suivante" }).click();
  await expect(dayRadios(page).first()).not.toHaveAttribute("value", firstWeek!);
  await expect(dayRadios(page).first()).toBeChecked();
  // The time of the week left is gone with it: nothing is chosen any more.
  const confirm = page.getByRole("button", { name: "Confirmer le rendez-vous" });
  await expect(confirm).toHaveAccessibleDescription(/^Aucun créneau choisi/);
  const day = await pickDay(page, 1);
  const slot = await pickTime(page, day, offset(info, true) + 5);
  await expect(confirm).toHaveAccessibleDescription(`Votre créneau : ${slot} (${LENGTH})`);
  await expect(page.getByRole("group", { name: /^\S+ \d+ \S+ \d{4}$/ })).toHaveCount(1);
});

test("the manage page labels the appointment's own slot « votre créneau actuel » @desktop", async ({ page }, info) => {
  await page.goto("/rendez-vous");
  await slotsEnhanced(page);
  const day = await pickDay(page, 2);
  const slot = await pickTime(page, day, offset(info, true) + 4);
  await fillContact(page, "Créneau Actuel");
  await page.getByRole("button", { name: "Confirmer le rendez-vous" }).click();
  await expect(page.getByRole("status")).toContainText("Votre rendez-vous est enregistré.", SLOW);
  await openMove(page);
  await pickDay(page, 2);
  const times = page.getByRole("group", { name: day, exact: true });
  await expect(times.getByText(`${slot} : votre créneau actuel`)).toBeVisible();
  await expect(times.getByText(`${slot} : complet`)).toHaveCount(0);
  await expect(page.getByRole("radio", { name: slot })).toHaveCount(0);
});

// Issue 40: what a visitor sees first, before scrolling, on a phone and on a laptop.
for (const [size, viewport, tag] of [
  ["390×844", { width: 390, height: 844 }, "@mobile"],
  ["1366×768", { width: 1366, height: 768 }, "@desktop"],
] as const) {
  test.describe(size, () => {
    test.use({ viewport });
    for (const path of ["/rendez-vous", "/rendez-vous?modele=iphone-13&reparation=ecran"]) {
      test(`${path}: one heading, the price's terms once, the first day's times on the first screen ${tag}`, async ({
        page,
      }) => {
        await page.goto(path);
        const main = page.getByRole("main");
        await expect(main.getByRole("heading", { level: 1 })).toHaveText("Prendre rendez-vous");
        await expect(page.getByRole("heading", { name: "Votre rendez-vous" })).toHaveCount(0);
        // A price is « confirmé après le diagnostic gratuit » once; a free diagnosis has no price to confirm.
        const terms = (await main.innerText()).match(/confirmé après le diagnostic/g) ?? [];
        expect(terms).toHaveLength(path.includes("reparation") ? 1 : 0);
        // The open day's first time, whole, under the fixed header and above the bottom of the screen.
        const time = page.getByRole("radio", { name: / à \d\d:\d\d$/ }).first();
        await expect(time).toBeVisible();
        const chip = await time.evaluate((input: HTMLInputElement) => {
          const box = input.labels![0]!.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom };
        });
        const header = (await page.getByRole("banner").boundingBox())!;
        expect(chip.top).toBeGreaterThanOrEqual(header.y + header.height);
        expect(chip.bottom).toBeLessThanOrEqual(viewport.height);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({
          path: test
            .info()
            .outputPath(`premier-ecran-${size}-${path.includes("reparation") ? "prix" : "diagnostic"}.png`),
        });
      });
    }
  });
}
