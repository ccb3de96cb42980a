/**
 * Issue 30, on the e2e server: the customer's page of an appointment (`/rendez-vous/gerer?jeton=…`).
 *
 * - Without JavaScript, « Déplacer à ce créneau » and « Confirmer l'annulation » work and say so in
 *   French (its `no-referrer` made Chromium post with `Origin: null`, refused by React Router with a
 *   bare English "Bad Request").
 * - A form posted with `Origin: null` or from another site is refused with the site's French page,
 *   never an English one, and changes nothing.
 * - With JavaScript, after booking, moving or cancelling, the confirmation opens in view and takes the
 *   focus (the redirect used to keep the scroll of the form that posted), at each project's width.
 * - Issue 40: the page has one heading; the move grid is folded under « Déplacer le rendez-vous » (and
 *   stays open on another week), cancelling is an outlined button, never the filled one; « À confirmer »
 *   is explained, with what to bring, the shop's address and phone number. This server sends no mail: no
 *   sentence promises one, the notices say to keep the page's link instead.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { APPOINTMENT_STATUS_HELP, BOOKING_MESSAGES, REQUESTED_HELP_WITHOUT_MAIL } from "#app/booking/schemas.ts";
import { defaultShop, formatAddress, mapsUrl, telHref } from "#app/config/shop.ts";
import { CROSS_SITE_MESSAGE } from "#app/utils/action-origin.ts";
import { violations } from "#tests/support/axe.ts";
import { enhanced } from "../support/enhanced.ts";

const BOOKING_PAGE = "/rendez-vous?modele=iphone-13&reparation=ecran";
// Typing at a person's pace and booking (a transaction with mails) on 2 cores shared with other runs.
test.describe.configure({ timeout: 120_000 });

/** At a person's pace: a key every 30 ms. */
const TYPING = { delay: 30 };
/** Booking takes the slot's lock and queues mails in one transaction: seconds on 2 busy cores. */
const STORED = { timeout: 20_000 };

/** A contact no other test uses (the caps per e-mail and per phone count across the run). */
function customer() {
  const id = Math.random().toString(36).slice(2, 8);
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
  return {
    name: "Inès Morel",
    email: `rdv-${id}@exemple.fr`,
    phone: `06 ${digits.replace(/(\d\d)(?=\d)/g, "$1 ")}`,
  };
}

/** Shuffled copy of `items` (slots drawn at random: the desktop and mobile runs share the server). */
function shuffled<T>(items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

/** The free times shown now (a day's, when the picker shows one day at a time), but `except`. */
async function shownTimes(scope: Locator, except: string | null): Promise<string[]> {
  const times = scope.locator('input[type="radio"][name="slot"]').filter({ visible: true });
  const values = await times.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
  return values.filter((value) => value !== except);
}

/**
 * Checks a free slot of the week shown in `scope` (a form) as a person does, whatever the picker's
 * layout: a day first when it offers days (`jour` radios, their chips are labels), then a time, drawn
 * at random among the free ones but `except`. Resolves with the slot's ISO start.
 */
async function pickSlot(scope: Locator, except: string | null = null): Promise<string> {
  const page = scope.page();
  const days = await scope
    .locator('input[type="radio"][name="jour"]')
    .evaluateAll((inputs) => inputs.map((input) => input.id));
  for (const day of days.length > 0 ? shuffled(days) : [null]) {
    if (day) await page.locator(`label[for="${day}"]`).click();
    const values = await shownTimes(scope, except);
    if (values.length === 0) continue;
    const value = shuffled(values)[0]!;
    await scope.locator(`input[type="radio"][name="slot"][value="${value}"]`).check();
    return value;
  }
  throw new Error("Aucun créneau libre cette semaine.");
}

/** The booking form, moved to the next week when this one has no free slot left (a Friday evening run). */
async function bookingForm(page: Page): Promise<Locator> {
  const form = page
    .locator("main form")
    .filter({ has: page.getByRole("button", { name: "Confirmer le rendez-vous" }) });
  if ((await form.locator('input[type="radio"][name="slot"]').count()) === 0) {
    await page.getByRole("link", { name: "Semaine suivante" }).click();
    await expect(form.locator('input[type="radio"][name="slot"]').first()).toBeAttached();
  }
  return form;
}

/** Fills the booking form at a person's pace and sends it; resolves with the chosen slot. */
async function book(page: Page): Promise<string> {
  const who = customer();
  const slot = await pickSlot(await bookingForm(page));
  await page.getByLabel("Nom").pressSequentially(who.name, TYPING);
  await page.getByLabel("Adresse e-mail").pressSequentially(who.email, TYPING);
  await page.getByLabel("Téléphone").pressSequentially(who.phone, TYPING);
  await page.getByRole("button", { name: "Confirmer le rendez-vous" }).click();
  return slot;
}

/** The move form of the appointment's page. */
const moveForm = (page: Page) => page.locator("form#deplacer");

/** The slot picker of the move form, by its legend. */
const movePicker = (page: Page) => page.getByRole("group", { name: "Choisissez un nouveau créneau" });

/** Opens the fold « Déplacer le rendez-vous » (issue 40): its slots are hidden until then. */
async function openMove(page: Page): Promise<void> {
  await expect(movePicker(page)).toBeHidden();
  await page.getByText("Déplacer le rendez-vous", { exact: true }).click();
  await expect(movePicker(page)).toBeVisible();
}

/** Resolves once the page's first form has its enhancer (issue 30: an islands page; before, it posts the same). */
async function hydrated(page: Page): Promise<void> {
  await enhanced(page, "main form[data-enhance]");
}

/** The confirmation after booking, moving or cancelling (`role="status"`), by its first sentence. */
const notice = (page: Page, sentence: string) => page.getByRole("status").filter({ hasText: sentence });

/** The page shows nothing of React Router's English refusal. */
async function expectNoEnglish(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.locator("body")).not.toContainText("Bad Request");
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("moving and cancelling from the appointment's page work and answer in French @desktop", async ({ page }) => {
    await page.goto(BOOKING_PAGE);
    const booked = await book(page);
    await expect(notice(page, "Votre rendez-vous est enregistré.")).toBeVisible(STORED);
    await expect(page).toHaveURL(/\/rendez-vous\/gerer\?jeton=[^&]+&nouveau=1#rendez-vous$/);
    const manage = page.url().replace(/&nouveau=1#rendez-vous$/, "");

    const opened = await page.goto(manage);
    // Folded without JavaScript too; another week keeps the fold open (its page comes from the server).
    await openMove(page);
    await moveForm(page).getByRole("link", { name: "Semaine suivante" }).click();
    await expect(page).toHaveURL(/&semaine=\d{4}-\d\d-\d\d#deplacer$/);
    await expect(movePicker(page)).toBeVisible();
    const moved = await pickSlot(moveForm(page), booked);
    const [moveAnswer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Déplacer à ce créneau" }).click(),
    ]);
    expect(moveAnswer.status()).toBe(303);
    await expect(notice(page, "Votre rendez-vous est déplacé.")).toBeVisible(STORED);
    // No mail carries the new link from this server: the notice says to keep this page's.
    await expect(notice(page, BOOKING_MESSAGES.movedWithoutMail)).toBeVisible();
    await expectNoEnglish(page);
    // The new slot is the appointment's now: no longer offered.
    await expect(moveForm(page).locator(`input[name="slot"][value="${moved}"]`)).toHaveCount(0);

    await page.getByText("Annuler le rendez-vous", { exact: true }).click();
    const [cancelAnswer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Confirmer l'annulation" }).click(),
    ]);
    expect(cancelAnswer.status()).toBe(303);
    await expect(notice(page, "Votre rendez-vous est annulé.")).toBeVisible(STORED);
    await expect(page.getByRole("heading", { name: "Rendez-vous annulé" })).toBeVisible();
    await expectNoEnglish(page);

    // The token stays ours (never in a Referer: only the origin is sent), yet the page's posts keep their Origin.
    const policies = (await opened!.headersArray()).filter((header) => header.name.toLowerCase() === "referrer-policy");
    expect(policies.at(-1)?.value).toBe("strict-origin");
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "strict-origin");
  });

  test("a form posted with Origin: null or from another site gets the French refusal and changes nothing @desktop", async ({
    page,
    baseURL,
  }) => {
    await page.goto(BOOKING_PAGE);
    await book(page);
    await expect(notice(page, "Votre rendez-vous est enregistré.")).toBeVisible(STORED);
    const manage = page.url().replace(/&nouveau=1#rendez-vous$/, "");

    /** A page with the cancel form of `manage`, served at `at` under the referrer policy `policy`. */
    const cancelFormAt = async (at: string, policy: string) => {
      await page.route(at, (route) =>
        route.fulfill({
          contentType: "text/html; charset=utf-8",
          body: `<!doctype html><html lang="fr"><head><meta name="referrer" content="${policy}"><title>Essai</title></head>
<body><form method="post" action="${manage}"><input type="hidden" name="intent" value="cancel">
<button>Confirmer l'annulation</button></form></body></html>`,
        }),
      );
      await page.goto(at);
    };

    // Our own origin under `no-referrer`, as the page was: Chromium posts `Origin: null`.
    // Another site: its own origin.
    for (const [at, policy] of [
      [`${baseURL}/essai-sans-referent`, "no-referrer"],
      ["http://site-tiers.test/formulaire", "strict-origin-when-cross-origin"],
    ] as const) {
      await cancelFormAt(at, policy);
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.getByRole("button", { name: "Confirmer l'annulation" }).click(),
      ]);
      const origin = await answer.request().headerValue("origin");
      expect(origin, at).toBe(at.startsWith("http://site-tiers") ? "http://site-tiers.test" : "null");
      expect(answer.status(), at).toBe(403);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demande refusée");
      await expect(page.getByText(CROSS_SITE_MESSAGE)).toBeVisible();
      await expectNoEnglish(page);
    }

    // Nothing changed: the appointment is still there, still movable.
    await page.goto(manage);
    await expect(page.getByRole("heading", { name: "Votre rendez-vous", exact: true })).toBeVisible();
    await expect(page.getByText("À confirmer", { exact: true })).toBeVisible();
    await openMove(page);
    await expect(page.getByRole("button", { name: "Déplacer à ce créneau" })).toBeVisible();
  });
});

test("every page's form refuses Origin: null and other sites in French, never React Router's English @desktop", async ({
  request,
  page,
  baseURL,
}) => {
  const paths = [
    "/rendez-vous",
    "/rendez-vous/gerer?jeton=inconnu",
    "/contact",
    "/dev-web",
    "/suivi",
    "/soft-assist",
    "/page-inconnue",
  ];
  for (const path of paths) {
    for (const origin of ["null", "https://site-tiers.example"]) {
      const answer = await request.post(path, {
        headers: { Origin: origin },
        form: { intent: "cancel" },
        maxRedirects: 0,
      });
      const body = await answer.text();
      expect(answer.status(), `${path} ${origin}`).toBe(403);
      expect(body, `${path} ${origin}`).toContain("Demande refusée");
      expect(body, `${path} ${origin}`).not.toContain("Bad Request");
    }
  }

  // In a browser with JavaScript: the refusal page, once its scripts ran, is still the French one.
  await page.route(`${baseURL}/essai-sans-referent`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="fr"><head><meta name="referrer" content="no-referrer"><title>Essai</title></head>
<body><form method="post" action="/contact"><button>Envoyer</button></form></body></html>`,
    }),
  );
  await page.goto("/essai-sans-referent");
  await page.getByRole("button", { name: "Envoyer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demande refusée");
  await page.waitForLoadState("networkidle");
  await expect(page.getByText(CROSS_SITE_MESSAGE)).toBeVisible();
  await expectNoEnglish(page);
  expect(await violations(page)).toEqual([]);
});

test.describe("with JavaScript", () => {
  test("after booking, moving and cancelling, the confirmation opens in view and takes the focus", async ({ page }) => {
    await page.goto(BOOKING_PAGE);
    await hydrated(page);
    const booked = await book(page);
    const bookedNotice = notice(page, "Votre rendez-vous est enregistré.");
    await expect(bookedNotice).toBeVisible(STORED);
    await expect(bookedNotice).toBeInViewport();
    await expect(bookedNotice).toBeFocused();
    expect(await violations(page)).toEqual([]);

    await openMove(page);
    await pickSlot(moveForm(page), booked);
    await page.getByRole("button", { name: "Déplacer à ce créneau" }).click();
    const movedNotice = notice(page, "Votre rendez-vous est déplacé.");
    await expect(movedNotice).toBeVisible(STORED);
    await expect(movedNotice).toBeInViewport();
    await expect(movedNotice).toBeFocused();

    await hydrated(page);
    await page.getByText("Annuler le rendez-vous", { exact: true }).click();
    await page.getByRole("button", { name: "Confirmer l'annulation" }).click();
    const cancelledNotice = notice(page, "Votre rendez-vous est annulé.");
    await expect(cancelledNotice).toBeVisible(STORED);
    await expect(cancelledNotice).toBeInViewport();
    await expect(cancelledNotice).toBeFocused();
    expect(await violations(page)).toEqual([]);
  });

  test("the appointment's page: one heading, the move folded, cancelling outlined, the status explained, what to bring, address and phone", async ({
    page,
  }) => {
    await page.goto(BOOKING_PAGE);
    await hydrated(page);
    await expect(page.getByText(/^Sans compte : après la réservation, gardez le lien de la page/u)).toBeVisible();
    await book(page);
    await expect(notice(page, "Votre rendez-vous est enregistré.")).toBeVisible(STORED);
    const main = page.getByRole("main");
    const shot = (name: string) =>
      page.screenshot({ path: test.info().outputPath(`${name}-${test.info().project.name}.png`), fullPage: true });
    await expect(main.getByRole("heading")).toHaveCount(1);
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Votre rendez-vous");
    await expect(page.getByText("Mon rendez-vous", { exact: true })).toHaveCount(0);

    // « À confirmer », and what it means; what to bring; where the shop is and its number (its identity).
    await expect(main.getByText("À confirmer", { exact: true })).toBeVisible();
    // This server sends no mail (no SMTP_URL): nothing promises one; the page's link is to be kept instead.
    await expect(main.getByText(REQUESTED_HELP_WITHOUT_MAIL)).toBeVisible();
    await expect(notice(page, BOOKING_MESSAGES.bookedDetailWithoutMail)).toBeVisible();
    await expect(main).not.toContainText(APPOINTMENT_STATUS_HELP.requested);
    await expect(main).not.toContainText("vous a été envoyé");
    await expect(main.getByText(/chargeur/)).toBeVisible();
    await expect(main.getByText(/code de déverrouillage/)).toBeVisible();
    const address = main.getByRole("link", { name: formatAddress(defaultShop.address), exact: false });
    await expect(address).toHaveAttribute("href", mapsUrl(defaultShop.address));
    await expect(main.getByRole("link", { name: defaultShop.phone.display })).toHaveAttribute(
      "href",
      telHref(defaultShop),
    );

    // The grid is folded until « Déplacer le rendez-vous » is opened.
    await expect(page.getByRole("radio", { name: / à \d\d:\d\d$/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Déplacer à ce créneau" })).toBeHidden();
    expect(await violations(page)).toEqual([]);
    await shot("rendez-vous-replie");
    await openMove(page);
    await expect(movePicker(page).getByRole("radio").first()).toBeVisible();
    const move = page.getByRole("button", { name: "Déplacer à ce créneau" });
    await expect(move).toBeVisible();

    // Cancelling, folded too, is an outlined button: not the filled one of moving.
    await page.getByText("Annuler le rendez-vous", { exact: true }).click();
    const cancel = page.getByRole("button", { name: "Confirmer l'annulation" });
    await expect(cancel).toBeVisible();
    const look = (button: Locator) =>
      button.evaluate((element) => {
        const style = getComputedStyle(element);
        return { fill: style.backgroundColor, border: style.borderTopWidth };
      });
    const [moveLook, cancelLook] = [await look(move), await look(cancel)];
    expect(cancelLook.fill).not.toBe(moveLook.fill);
    expect(cancelLook.border).not.toBe("0px");
    expect(moveLook.border).toBe("0px");
    expect(await violations(page)).toEqual([]);
    await shot("rendez-vous-ouvert");
  });
});
