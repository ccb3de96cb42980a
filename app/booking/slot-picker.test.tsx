// @vitest-environment happy-dom
/**
 * Issue 30, the slot picker of /rendez-vous and /rendez-vous/gerer: a day, then its times; the chosen
 * slot and its length repeated next to the form's button; the manage page's own slot labelled
 * « votre créneau actuel » instead of « complet ».
 */
import type { ReactNode } from "react";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { BookingForm } from "./booking-form.tsx";
import { DIAGNOSIS_LABEL } from "./booked-repair.server.ts";
import type { DayView } from "./context.ts";
import { DEFAULT_BOOKING_SETTINGS } from "./settings.ts";
import { formatSlotLength, slotMinutesOf } from "./slot-choice.ts";
import { SlotPicker } from "./slot-picker.tsx";
import { TEST_DAYS } from "./test-week.ts";

const DAYS = TEST_DAYS;

const BOOKED = {
  modelSlug: null,
  modelName: null,
  brandPath: null,
  family: null,
  repairId: null,
  repairLabel: DIAGNOSIS_LABEL,
  euros: null,
  estimate: false,
  choices: [],
};

function renderAt(path: string, Component: () => ReactNode) {
  const Stub = createRoutesStub([{ path, Component }]);
  return render(<Stub initialEntries={[path]} />);
}

const timesOf = (day: RegExp) => screen.getByRole("group", { name: day });

describe("SlotPicker (issue 30)", () => {
  it("shows the first day's times, and another day's once that day is picked", async () => {
    renderAt("/rendez-vous", () => (
      <BookingForm action="/rendez-vous" formKey="k" week={{ days: DAYS }} booked={BOOKED} />
    ));
    const tuesday = await screen.findByRole("radio", { name: "mardi 24 novembre 2026, 2 créneaux libres" });
    expect(tuesday).toBeChecked();
    // A closed day (no slot) is not offered.
    expect(screen.getAllByRole("radio", { name: /2026, / })).toHaveLength(2);
    expect(
      within(timesOf(/^mardi 24 novembre 2026$/)).getByRole("radio", { name: "mardi 24 novembre 2026 à 09:00" }),
    ).toBeVisible();
    expect(screen.queryByRole("group", { name: /^mercredi 25 novembre 2026$/ })).toBeNull();
    expect(screen.queryByRole("radio", { name: "mercredi 25 novembre 2026 à 14:00" })).toBeNull();

    await userEvent.click(screen.getByText("25"));
    expect(screen.getByRole("radio", { name: "mercredi 25 novembre 2026, 2 créneaux libres" })).toBeChecked();
    const wednesday = timesOf(/^mercredi 25 novembre 2026$/);
    expect(
      within(wednesday)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["2026-11-25T13:00:00.000Z", "2026-11-25T13:30:00.000Z"]);
    // The full 15:00 is shown, named « complet ».
    expect(wednesday).toHaveTextContent("15:00 : complet");
    expect(screen.queryByRole("group", { name: /^mardi 24 novembre 2026$/ })).toBeNull();
  });

  it("repeats the chosen slot and its length next to « Confirmer le rendez-vous »", async () => {
    const { container } = renderAt("/rendez-vous", () => (
      <BookingForm action="/rendez-vous" formKey="k" week={{ days: DAYS }} booked={BOOKED} />
    ));
    const confirm = await screen.findByRole("button", { name: "Confirmer le rendez-vous" });
    const length = formatSlotLength(DEFAULT_BOOKING_SETTINGS.slotMinutes);
    expect(length).toBe("30 min");
    expect(confirm).toHaveAccessibleDescription(/^Aucun créneau choisi/);

    await userEvent.click(screen.getByText("25"));
    await userEvent.click(screen.getByRole("radio", { name: "mercredi 25 novembre 2026 à 14:30" }));
    expect(confirm).toHaveAccessibleDescription(`Votre créneau : mercredi 25 novembre 2026 à 14:30 (${length})`);
    // Beside the button, in the same row.
    expect(confirm.parentElement).toHaveTextContent("Votre créneau : mercredi 25 novembre 2026 à 14:30 (30 min)");
    expect(new FormData(confirm.closest("form")!).get("slot")).toBe("2026-11-25T13:30:00.000Z");

    // Another day: the time left behind is unchecked (it would be out of sight), and the sentence says so.
    await userEvent.click(screen.getByText("24"));
    expect(new FormData(confirm.closest("form")!).get("slot")).toBeNull();
    expect(confirm).toHaveAccessibleDescription(/^Aucun créneau choisi/);
    // Once only, beside the button: the picker does not repeat it a second time.
    expect(container.textContent!.match(/Un rendez-vous dure 30 min/g)).toHaveLength(1);
  });

  it("pre-selects the slot posted before and says it before any click", async () => {
    renderAt("/rendez-vous", () => (
      <BookingForm
        action="/rendez-vous"
        formKey="k"
        week={{ days: DAYS }}
        booked={BOOKED}
        actionData={{
          message: "Veuillez indiquer votre nom.",
          fieldErrors: {},
          values: { slot: DAYS[2]!.slots[1]!.start },
        }}
      />
    ));
    expect(await screen.findByRole("radio", { name: "mercredi 25 novembre 2026 à 14:30" })).toBeChecked();
    expect(screen.getByRole("button", { name: "Confirmer le rendez-vous" })).toHaveAccessibleDescription(
      "Votre créneau : mercredi 25 novembre 2026 à 14:30 (30 min)",
    );
  });

  it("labels the appointment's own slot « votre créneau actuel », not offered, and repeats the choice at its end", async () => {
    const current = DAYS[0]!.slots[1]!.start;
    renderAt("/rendez-vous/gerer", () => (
      <form>
        <SlotPicker legend="Déplacer le rendez-vous" days={DAYS} current={current} />
        <button type="submit">Déplacer à ce créneau</button>
      </form>
    ));
    const tuesday = await screen.findByRole("group", { name: /^mardi 24 novembre 2026$/ });
    expect(tuesday).toHaveTextContent("09:30 : votre créneau actuel");
    expect(tuesday).not.toHaveTextContent("09:30 : complet");
    expect(within(tuesday).queryByRole("radio", { name: /09:30/ })).toBeNull();
    await userEvent.click(screen.getByRole("radio", { name: "mardi 24 novembre 2026 à 10:00" }));
    expect(screen.getByText(/^Votre créneau :/)).toHaveTextContent(
      "Votre créneau : mardi 24 novembre 2026 à 10:00 (30 min)",
    );
  });
});

describe("slotMinutesOf", () => {
  it("reads the staff's slot length from the week, else the code's default", () => {
    expect(slotMinutesOf(DAYS)).toBe(30);
    const hourly: DayView[] = [
      {
        date: "2026-11-24",
        slots: [
          { start: "2026-11-24T08:00:00.000Z", time: "09:00", free: 1 },
          { start: "2026-11-24T09:00:00.000Z", time: "10:00", free: 1 },
          { start: "2026-11-24T13:00:00.000Z", time: "14:00", free: 1 },
        ],
      },
    ];
    expect(slotMinutesOf(hourly)).toBe(60);
    expect(formatSlotLength(60)).toBe("1 h");
    expect(formatSlotLength(90)).toBe("1 h 30");
    expect(slotMinutesOf([{ date: "2026-11-24", slots: [DAYS[0]!.slots[0]!] }])).toBe(
      DEFAULT_BOOKING_SETTINGS.slotMinutes,
    );
  });
});
