// @vitest-environment happy-dom
/**
 * Issue 30 (docs/decisions/029-forms-as-islands-pages.md): the islands pages' enhancers, plain DOM code
 * run on the server-rendered forms (`data-enhance`), against the real markup of the components. Each
 * component is rendered to HTML as the server renders an islands page (`renderToString`, React never
 * runs in the document), so what is observed here is the enhancer's work alone:
 * - `form`: the empty one-time key filled in, the sending state (label, button disabled, `aria-busy`),
 *   a second submission ignored, both undone when the page comes back from the back-forward cache, and
 *   the result emptied when the visitor types again (`data-dismiss-results`, the contact form only);
 * - `slots`: the chosen slot repeated in words (« Votre créneau : … (30 min) »), the time of the day left
 *   unchecked, a time checked before the script ran named at once;
 * The enhancers add listeners to `window`, `document` and the tab's auth channel that no page ever removes:
 * each test removes those it added, so that no test sees another's detached form.
 */
import { describe, expect, it } from "vitest";
import { formatWhen } from "#app/booking/format.ts";
import { formatSlotLength, slotMinutesOf } from "#app/booking/slot-choice.ts";
import { SlotPicker } from "#app/booking/slot-picker.tsx";
import { ContactForm } from "#app/components/forms/contact-form.tsx";
import { QuoteForm } from "#app/components/forms/quote-form.tsx";
import { formActionData } from "#app/requests/action-data.ts";
import { FORM_KEY_FIELD, REQUEST_MESSAGES } from "#app/requests/schemas.ts";
import { enhance as enhanceForm } from "./form.ts";
import { enhance as enhanceSlots } from "./slots.ts";

import { enhanced, pageShow, renderPage, sandboxEachTest, submit, tick } from "./test-page.tsx";
import { TEST_DAYS } from "#app/booking/test-week.ts";

sandboxEachTest();

describe("form enhancer", () => {
  const contactForm = () => {
    const form = enhanced<HTMLFormElement>("form");
    return {
      form,
      key: form.querySelector<HTMLInputElement>(`input[name="${FORM_KEY_FIELD}"]`)!,
      button: form.querySelector<HTMLButtonElement>('button[type="submit"]')!,
    };
  };

  it("fills the empty one-time key with 32 hex digits, and keeps a key already there", () => {
    renderPage("/contact", () => <ContactForm />);
    const { form, key } = contactForm();
    expect(key.value).toBe("");
    enhanceForm(form);
    expect(key.value).toMatch(/^[0-9a-f]{32}$/);

    renderPage("/contact", () => <ContactForm />);
    const again = contactForm();
    again.key.value = "cle-deja-tiree";
    enhanceForm(again.form);
    expect(again.key.value).toBe("cle-deja-tiree");
  });

  it("shows « Envoi en cours... », disables the button after the event and ignores a second submission", async () => {
    renderPage("/contact", () => <ContactForm />);
    const { form, button } = contactForm();
    expect(button).toHaveTextContent("Envoyer le message");
    enhanceForm(form);

    expect(submit(form, button)).toBe(true);
    expect(button.textContent).toBe(button.getAttribute("data-sending-label"));
    expect(button).toHaveTextContent("Envoi en cours...");
    // Still enabled while the browser reads the form (and the button's name and value).
    expect(button).toBeEnabled();
    await tick();
    expect(button).toBeDisabled();
    expect(form).toHaveAttribute("aria-busy", "true");

    expect(submit(form, button)).toBe(false);
  });

  it("makes the form usable again when the page comes back from the back-forward cache", async () => {
    renderPage("/contact", () => <ContactForm />);
    const { form, button } = contactForm();
    enhanceForm(form);
    submit(form, button);
    await tick();
    expect(button).toBeDisabled();

    // A page shown again without the cache (a fresh load) is not this page's concern.
    pageShow(false);
    expect(button).toBeDisabled();
    expect(form).toHaveAttribute("aria-busy", "true");

    pageShow(true);
    expect(button).toBeEnabled();
    expect(button.textContent).toBe("Envoyer le message");
    expect(form).not.toHaveAttribute("aria-busy");
    // The next submission is sent, and shows the sending state again.
    expect(submit(form, button)).toBe(true);
    expect(button).toHaveTextContent("Envoi en cours...");
  });

  it("uses the form's submit button when the event names no submitter", async () => {
    renderPage("/contact", () => <ContactForm />);
    const { form, button } = contactForm();
    enhanceForm(form);
    expect(submit(form, null)).toBe(true);
    expect(button).toHaveTextContent("Envoi en cours...");
    await tick();
    expect(button).toBeDisabled();
  });

  it("leaves a submission another script cancelled alone", async () => {
    renderPage("/contact", () => <ContactForm />);
    const { form, button } = contactForm();
    enhanceForm(form);
    const cancel = (event: Event) => event.preventDefault();
    form.addEventListener("submit", cancel, { capture: true });
    expect(submit(form, button)).toBe(false);
    await tick();
    expect(button).toHaveTextContent("Envoyer le message");
    expect(button).toBeEnabled();
    form.removeEventListener("submit", cancel, { capture: true });
    // Not counted as a submission on its way: the next one is sent.
    expect(submit(form, button)).toBe(true);
  });

  it("empties the contact form's result when the visitor types again (data-dismiss-results)", () => {
    const refused = formActionData(
      "contact",
      { status: "failed" },
      { name: "Marie", email: "marie@example.fr", message: "Bonjour" },
    );
    renderPage("/contact", () => <ContactForm actionData={refused} />);
    const { form } = contactForm();
    expect(form).toHaveAttribute("data-dismiss-results");
    const alert = form.querySelector('[role="alert"]')!;
    expect(alert).toHaveTextContent(REQUEST_MESSAGES.contactFailure);
    enhanceForm(form);

    const message = form.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!;
    message.value += " Merci";
    message.dispatchEvent(new Event("input", { bubbles: true }));
    for (const region of form.querySelectorAll("[data-form-result]")) expect(region).toBeEmptyDOMElement();
    // The values typed are kept: only the result goes.
    expect(message).toHaveValue("Bonjour Merci");
  });

  it("keeps the quote form's result while the visitor types (no data-dismiss-results)", () => {
    const refused = formActionData("quote", { status: "failed" }, { companyName: "Atelier" });
    renderPage("/dev-web", () => <QuoteForm actionData={refused} />);
    const form = enhanced<HTMLFormElement>("form");
    expect(form).not.toHaveAttribute("data-dismiss-results");
    enhanceForm(form);
    const company = form.querySelector<HTMLInputElement>('input[name="companyName"]')!;
    company.value = "Atelier Martin";
    company.dispatchEvent(new Event("input", { bubbles: true }));
    expect(form.querySelector('[role="alert"]')).toHaveTextContent(REQUEST_MESSAGES.quoteFailure);
  });
});

describe("slots enhancer", () => {
  const DAYS = TEST_DAYS;
  const LENGTH = formatSlotLength(slotMinutesOf(DAYS));
  const NONE = `Aucun créneau choisi : choisissez un jour, puis une heure. Un rendez-vous dure ${LENGTH}.`;

  function renderPicker(selected?: string) {
    renderPage("/rendez-vous/gerer", () => (
      <form method="post" action="/rendez-vous/gerer#deplacer" data-enhance="form slots">
        <SlotPicker legend="Déplacer le rendez-vous" days={DAYS} selected={selected} />
        <button type="submit">Déplacer à ce créneau</button>
      </form>
    ));
    const form = enhanced<HTMLFormElement>("slots");
    return {
      form,
      sentence: form.querySelector<HTMLElement>("[data-chosen-slot]")!,
      time: (start: string) => form.querySelector<HTMLInputElement>(`input[name="slot"][value="${start}"]`)!,
      day: (date: string) => form.querySelector<HTMLInputElement>(`input[name="jour"][value="${date}"]`)!,
    };
  }

  /** What a click on a radio does: checks it, and the form hears a `change`. */
  function check(radio: HTMLInputElement) {
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  }

  it("names the time checked, then unchecks it when another day is shown and says none is chosen", () => {
    const { form, sentence, time, day } = renderPicker();
    expect(LENGTH).toBe("30 min");
    enhanceSlots(form);
    expect(sentence.textContent).toMatch(/^Aucun créneau choisi/);

    const tuesdayAtTen = DAYS[0]!.slots[2]!.start;
    check(time(tuesdayAtTen));
    expect(sentence.textContent).toBe(`Votre créneau : ${formatWhen(new Date(tuesdayAtTen))} (${LENGTH})`);
    expect(sentence).toHaveTextContent("Votre créneau : mardi 24 novembre 2026 à 10:00 (30 min)");

    check(day("2026-11-25"));
    expect(time(tuesdayAtTen).checked).toBe(false);
    expect(new FormData(form).get("slot")).toBeNull();
    expect(sentence.textContent).toBe(NONE);

    const wednesdayAtTwo = DAYS[2]!.slots[0]!.start;
    check(time(wednesdayAtTwo));
    expect(sentence.textContent).toBe(`Votre créneau : ${formatWhen(new Date(wednesdayAtTwo))} (${LENGTH})`);
  });

  it("keeps a time of the day shown when that day is chosen again", () => {
    const { form, sentence, time, day } = renderPicker();
    enhanceSlots(form);
    const tuesdayAtNine = DAYS[0]!.slots[0]!.start;
    check(time(tuesdayAtNine));
    check(day("2026-11-24"));
    expect(time(tuesdayAtNine).checked).toBe(true);
    expect(sentence.textContent).toBe(`Votre créneau : ${formatWhen(new Date(tuesdayAtNine))} (${LENGTH})`);
  });

  it("names at once a time checked before the script ran", () => {
    const { form, sentence, time } = renderPicker();
    const wednesdayAtHalfPastTwo = DAYS[2]!.slots[1]!.start;
    // Checked while the page loaded: no change event reaches the enhancer.
    time(wednesdayAtHalfPastTwo).checked = true;
    expect(sentence.textContent).not.toMatch(/^Votre créneau/);
    enhanceSlots(form);
    expect(sentence.textContent).toBe(`Votre créneau : ${formatWhen(new Date(wednesdayAtHalfPastTwo))} (${LENGTH})`);
  });

  it("keeps the server's sentence for the slot it pre-selected, and follows later choices", () => {
    const posted = DAYS[2]!.slots[1]!.start;
    const { form, sentence, time, day } = renderPicker(posted);
    const said = `Votre créneau : ${formatWhen(new Date(posted))} (${LENGTH})`;
    expect(sentence.textContent).toBe(said);
    enhanceSlots(form);
    expect(sentence.textContent).toBe(said);

    check(day("2026-11-24"));
    expect(time(posted).checked).toBe(false);
    expect(sentence.textContent).toBe(NONE);
  });
});
