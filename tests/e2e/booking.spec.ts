/**
 * Issue 18 §1 and §3 end to end, in two browser contexts on a server of
 * this file with a test SMTP server: a visitor books from a brand page's
 * « Prendre rendez-vous », receives the mail with its `.ics`, moves the
 * appointment by the mail's link, while a technician's agenda shows the
 * booking and the move without reloading, then confirms it (another mail).
 * The bonus réparation shows only once staff turn it on. axe finds nothing
 * on each new screen, at desktop and mobile widths.
 */
import { expect, test, type Page } from "@playwright/test";
import { APPOINTMENT_STATUS_HELP, BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import {
  newPage,
  signIn,
  startAreaServer,
  violations,
  type AreaServer,
  type TechnicianAccount,
} from "#tests/support/soft-assist-pages.ts";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "#tests/support/smtp.ts";

const TECHNICIAN: TechnicianAccount = {
  name: "Alex Agenda",
  email: "alex.agenda@atelier.exemple",
  password: "mot-de-passe-technicien",
};

let area: AreaServer;
let smtp: SmtpSink;

// Three people, six WCAG checks and five mails: 70 s on an idle machine, past 150 s on 2 cores busy with two browsers.
test.describe.configure({ mode: "default", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpSink();
  area = await startAreaServer("rendez-vous", [TECHNICIAN], { SMTP_URL: smtp.url, OUTBOX_POLL_MS: "200" });
});

test.afterAll(async () => {
  await area?.stop();
  await smtp?.close();
});

/** The shop date ("YYYY-MM-DD", Europe/Paris) of an ISO instant. */
const shopDateOf = (iso: string) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Paris",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(iso));
const timeOf = (iso: string) =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );

/** Waits for a mail to `to` whose subject starts with `subject`. */
async function mailTo(to: string, subject: string): Promise<ReceivedMail> {
  await expect
    .poll(() => smtp.received.some((mail) => mail.to.includes(to) && mail.subject.startsWith(subject)), {
      timeout: 20_000,
    })
    .toBe(true);
  return smtp.received.findLast((mail) => mail.to.includes(to) && mail.subject.startsWith(subject))!;
}

/** The technician's agenda on the day `date`, in the « Jour » view. */
async function openAgendaOn(page: Page, date: string): Promise<void> {
  await page
    .getByRole("navigation", { name: "Vues du tableau de bord" })
    .getByRole("button", { name: "Rendez-vous" })
    .click();
  const agenda = page.getByRole("region", { name: "Rendez-vous" });
  await agenda.getByRole("button", { name: "Jour", exact: true }).click();
  const today = shopDateOf(new Date().toISOString());
  const days = Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);
  for (let step = 0; step < days; step++) await agenda.getByRole("button", { name: "Jour suivant" }).click();
  await expect(agenda.getByRole("heading", { level: 3 })).toHaveCount(1);
}

test("a visitor books from a price, gets the .ics, moves it by the link; the agenda follows live", async ({
  browser,
}) => {
  const email = `client-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;
  const visitor = await newPage(browser, area.server.url);
  await visitor.goto("/services/iphone-repair");
  // No bonus while the setting is off (issue 18 §3).
  await expect(visitor.getByText(/après bonus réparation/)).toHaveCount(0);
  await visitor.getByRole("link", { name: "Prendre rendez-vous : Écran, iPhone 13", exact: true }).click();
  await expect(visitor).toHaveURL(/\/rendez-vous\?modele=iphone-13&reparation=ecran$/);
  await expect(visitor.getByRole("heading", { level: 2, name: "Écran – iPhone 13" })).toBeVisible();
  await expect(
    visitor.getByText("Sans compte : une confirmation et un rappel vous sont envoyés par e-mail."),
  ).toBeVisible();
  expect(await violations(visitor)).toEqual([]);

  // Issue 30: the open day's times (the day radios are named by their date, the times end with the hour).
  const slots = visitor.getByRole("radio", { name: / à \d\d:\d\d$/ });
  const first = (await slots.nth(0).getAttribute("value"))!;
  const second = (await slots.nth(1).getAttribute("value"))!;
  const day = shopDateOf(first);

  const technician = await newPage(browser, area.server.url);
  await signIn(technician, TECHNICIAN);
  await openAgendaOn(technician, day);
  const agenda = technician.getByRole("region", { name: "Rendez-vous" });
  await expect(agenda.getByText("Aucun rendez-vous.")).toBeVisible();

  await slots.nth(0).check();
  await visitor.getByLabel("Nom").fill("Inès Morel");
  await visitor.getByLabel("Adresse e-mail").fill(email);
  await visitor.getByLabel("Téléphone").fill("06 12 34 56 78");
  await visitor.getByLabel("Précisions (facultatif)").fill("Écran noir après une chute.");
  await visitor.getByRole("button", { name: "Confirmer le rendez-vous" }).click();
  // Booking holds the slot's lock, counts the caps and queues two mails in one transaction: seconds on 2 busy cores.
  await expect(visitor.getByRole("status")).toContainText("Votre rendez-vous est enregistré.", { timeout: 20_000 });
  // Issue 40: this server sends mail (SMTP), so the page says one was sent and what « À confirmer » will bring.
  await expect(visitor.getByRole("status")).toContainText(BOOKING_MESSAGES.bookedDetail);
  await expect(visitor.getByText(APPOINTMENT_STATUS_HELP.requested)).toBeVisible();
  await expect(visitor.getByText("À confirmer")).toBeVisible();
  expect(await violations(visitor)).toEqual([]);

  // Live: the technician's agenda shows it without a reload.
  const card = agenda.getByTestId("rendez-vous").filter({ hasText: "Inès Morel" });
  await expect(card).toContainText(timeOf(first));
  await expect(card).toContainText("Écran – iPhone 13");
  // Issue 40: and its tab counts it « à confirmer », live too.
  const views = technician.getByRole("navigation", { name: "Vues du tableau de bord" });
  await expect(views.getByRole("button", { name: "Rendez-vous (1 à confirmer)" })).toBeVisible();
  expect(await violations(technician)).toEqual([]);

  const booked = await mailTo(email, "Votre rendez-vous est enregistré");
  expect(booked.calendars.join("\n")).toContain(`DTSTART:${first.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}`);
  await mailTo("contact@atelier-informatique.example", "Nouveau rendez-vous");
  const link = /https?:\/\/\S+\/rendez-vous\/gerer\?jeton=\S+/.exec(booked.text)?.[0];
  expect(link).toBeTruthy();

  // Moved by the mail's link, in a fresh context (no cookie, no account).
  const fromMail = await newPage(browser, area.server.url);
  const opened = await fromMail.goto(link!);
  // The token is a credential: the page is never cached, nor sent as a referrer (only the origin is, issue 30).
  expect(opened?.headers()["cache-control"]).toBe("no-store");
  await expect(fromMail.locator('meta[name="referrer"]')).toHaveAttribute("content", "strict-origin");
  // Issue 40: the slots are folded under « Déplacer le rendez-vous ».
  await fromMail.getByText("Déplacer le rendez-vous", { exact: true }).click();
  await fromMail.locator(`input[type=radio][value="${second}"]`).first().check();
  await fromMail.getByRole("button", { name: "Déplacer à ce créneau" }).click();
  await expect(fromMail.getByRole("status")).toContainText("Votre rendez-vous est déplacé.", { timeout: 20_000 });
  expect(await violations(fromMail)).toEqual([]);
  const moved = await mailTo(email, "Votre rendez-vous est déplacé");
  expect(moved.calendars.join("\n")).toContain("SEQUENCE:1");
  await expect(card).toContainText(timeOf(second));

  await card.getByRole("button", { name: "Confirmer" }).click();
  await expect(card).toContainText("Confirmé");
  await expect(views.getByRole("button", { name: "Rendez-vous", exact: true })).toBeVisible();
  // Issue 40: the week starts today (whatever the weekday): the booking shows without navigating.
  await agenda.getByRole("button", { name: "Semaine", exact: true }).click();
  await agenda.getByRole("button", { name: "Aujourd'hui" }).click();
  await expect(agenda.getByRole("heading", { level: 3 }).first()).toHaveText(/^Aujourd'hui, /);
  await expect(agenda.getByRole("heading", { level: 3 })).toHaveCount(7);
  await expect(card).toContainText("Confirmé");
  await mailTo(email, "Votre rendez-vous est confirmé");

  // A link whose signature has one character changed opens nothing.
  const signatureAt = link!.lastIndexOf(".") + 5;
  const flipped = link![signatureAt] === "A" ? "B" : "A";
  await fromMail.goto(`${link!.slice(0, signatureAt)}${flipped}${link!.slice(signatureAt + 1)}`);
  await expect(fromMail.getByText("Ce lien n'est pas valide ou a expiré.")).toBeVisible();
  await Promise.all([visitor.context().close(), fromMail.context().close()]);

  // §3: staff turn the bonus on; the brand page and the booking summary show it.
  await agenda.getByRole("button", { name: "Réglages de l'agenda" }).click();
  await agenda.getByRole("checkbox", { name: /Afficher « X € après bonus réparation »/ }).check();
  await agenda.getByRole("button", { name: "Enregistrer les réglages" }).click();
  await expect(agenda.getByText("Réglages enregistrés.")).toBeVisible();
  expect(await violations(technician)).toEqual([]);
  const later = await newPage(browser, area.server.url);
  await later.goto("/services/iphone-repair");
  const priceCard = later.locator("#iphone-13");
  const euros = (text: string | null) => Number(/(\d+)\s€/.exec(text ?? "")?.[1]);
  const price = euros(await priceCard.locator("dd").first().textContent());
  const afterBonus = priceCard.getByText(/^\d+\s€ après bonus réparation$/).first();
  await expect(afterBonus).toBeVisible();
  expect(euros(await afterBonus.textContent())).toBeLessThan(price);
  // The structured data keep the undiscounted price.
  type Offer = { url: string; itemOffered: { serviceType: string }; priceSpecification: { minPrice: number } };
  const graph = JSON.parse((await later.locator('script[type="application/ld+json"]').first().textContent())!) as {
    "@graph": { hasOfferCatalog?: { itemListElement: Offer[] } }[];
  };
  const offers = graph["@graph"].flatMap((node) => node.hasOfferCatalog?.itemListElement ?? []);
  const screen = offers.find((offer) => offer.url.endsWith("#iphone-13") && offer.itemOffered.serviceType === "Écran");
  expect(screen?.priceSpecification.minPrice).toBe(price);
  await later.goto("/rendez-vous?modele=iphone-13&reparation=ecran");
  await expect(later.getByText(/\d+\s€ après bonus réparation/)).toBeVisible();
  await Promise.all([later.context().close(), technician.context().close()]);
});
