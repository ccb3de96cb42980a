/**
 * Issue 30: the chosen slot repeated in words next to the form's button (« Confirmer le rendez-vous »,
 * « Déplacer à ce créneau »), with the appointment's length, so a customer who chose a time in a long
 * week sees what the button will book.
 *
 * The radios stay plain HTML (the forms work without JavaScript), so the form's own radio state is
 * the truth: this reads which `slot` radio of its form is checked, and follows the form's `change`
 * events. A choice made before hydration is read once React runs. Without JavaScript the sentence
 * cannot name the slot: CSS swaps « Aucun créneau choisi » for « Créneau choisi ci-dessus » instead.
 */
import { useCallback, useSyncExternalStore } from "react";
import { formatWhen } from "./format.ts";
import { formatSlotLength } from "./slot-choice.ts";
import { CHOSEN_SLOT_TEXT, SLOT_FIELD } from "./slot-fields.ts";

type Props = {
  /** The paragraph's id, for the button's `aria-describedby`. */
  id: string;
  /** The ISO start pre-selected by the server (`offeredStart`), what is said before hydration. */
  initial?: string;
  /** Length of a slot, minutes (`slotMinutesOf`). */
  slotMinutes: number;
  className?: string;
};

/** The form's checked slot start, or `fallback` before the paragraph is in the document. */
function checkedStart(id: string, fallback: string | undefined): string | undefined {
  const paragraph = document.getElementById(id);
  if (!paragraph) return fallback;
  const checked = paragraph.closest("form")?.querySelector<HTMLInputElement>(`input[name="${SLOT_FIELD}"]:checked`);
  return checked?.value || undefined;
}

/** « Votre créneau : mardi 24 novembre 2026 à 09:00 (30 min) », or what to do when none is chosen yet. */
export function ChosenSlot({ id, initial, slotMinutes, className = "" }: Props) {
  const subscribe = useCallback(
    (changed: () => void) => {
      const form = document.getElementById(id)?.closest("form");
      form?.addEventListener("change", changed);
      return () => form?.removeEventListener("change", changed);
    },
    [id],
  );
  // Read again after each commit too (React checks the snapshot): another week's radios replace the
  // checked one without any change event.
  const chosen = useSyncExternalStore(
    subscribe,
    () => checkedStart(id, initial),
    () => initial,
  );
  const length = formatSlotLength(slotMinutes);
  // Two lines reserved: the sentence changes length with the choice, never the layout around it.
  return (
    // `data-chosen-slot`: on an islands page, the `slots` enhancer (issue 30) keeps this sentence up to date.
    <p id={id} data-chosen-slot="" data-slot-length={length} className={`min-h-[2lh] text-slate-200 ${className}`}>
      {chosen ? (
        <>
          {CHOSEN_SLOT_TEXT.chosen}
          <strong className="font-semibold text-white">{formatWhen(new Date(chosen))}</strong> ({length})
        </>
      ) : (
        <>
          {/* Without JavaScript, CSS says whether a `slot` radio (SLOT_FIELD, spelt out for Tailwind) is checked. */}
          <span className="[form:has(input[name=slot]:checked)_&]:hidden">{CHOSEN_SLOT_TEXT.none}</span>
          <span className="hidden [form:has(input[name=slot]:checked)_&]:inline">Créneau choisi ci-dessus.</span>{" "}
          {CHOSEN_SLOT_TEXT.length(length)}
        </>
      )}
    </p>
  );
}
