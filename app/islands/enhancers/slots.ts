/**
 * Issue 30 (decision 029): the slot choice of a server-rendered booking or move form
 * (`data-enhance="slots"` on the `<form>`), in plain DOM code. Without JavaScript, CSS already shows
 * the checked day's times (`SlotDays`); this adds what CSS cannot do:
 * - showing another day unchecks the time checked on the day left: it would be posted out of sight,
 *   and while a radio of the group is checked Tab reaches only that one;
 * - the chosen slot in words next to the button (`ChosenSlot`, `data-chosen-slot`), e.g.
 *   « Votre créneau : mardi 24 novembre 2026 à 09:00 (30 min) », kept up to date.
 */
import { formatWhen } from "#app/booking/format.ts";
import { CHOSEN_SLOT_TEXT, DAY_FIELD, DAY_GROUP_ATTRIBUTE, SLOT_FIELD } from "#app/booking/slot-fields.ts";

/** The sentence of `ChosenSlot` for `start` (an ISO instant), or for no choice. */
function sayChoice(paragraph: HTMLElement, start: string | undefined) {
  const length = paragraph.dataset.slotLength ?? "";
  if (!start) {
    paragraph.textContent = `${CHOSEN_SLOT_TEXT.none} ${CHOSEN_SLOT_TEXT.length(length)}`;
    return;
  }
  const when = document.createElement("strong");
  when.className = "font-semibold text-white";
  when.textContent = formatWhen(new Date(start));
  paragraph.replaceChildren(CHOSEN_SLOT_TEXT.chosen, when, ` (${length})`);
}

/** Enhances the form `element` that holds a slot picker (see the module comment). */
export function enhance(element: HTMLElement): void {
  const checkedSlot = () => element.querySelector<HTMLInputElement>(`input[name="${SLOT_FIELD}"]:checked`);
  const paragraph = element.querySelector<HTMLElement>("[data-chosen-slot]");
  let said = checkedSlot()?.value;
  const update = () => {
    const start = checkedSlot()?.value || undefined;
    if (!paragraph || start === said) return;
    said = start;
    sayChoice(paragraph, start);
  };
  element.addEventListener("change", (event) => {
    const day = event.target;
    if (day instanceof HTMLInputElement && day.name === DAY_FIELD && day.checked) {
      const hidden = checkedSlot();
      if (hidden && hidden.closest(`[${DAY_GROUP_ATTRIBUTE}]`)?.getAttribute(DAY_GROUP_ATTRIBUTE) !== day.value)
        hidden.checked = false;
    }
    update();
  });
  // A time checked while the script loaded: the server's sentence cannot name it.
  said = paragraph && !paragraph.querySelector("strong") ? undefined : said;
  update();
}
