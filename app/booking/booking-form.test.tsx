// @vitest-environment happy-dom
/**
 * Issue 28 "a retried booking must not book twice": the booking form posts
 * the one-time key its page drew, as a hidden field present without
 * JavaScript, and never shows it.
 */
import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { BookingForm } from "./booking-form.tsx";
import { DIAGNOSIS_LABEL } from "./booked-repair.server.ts";
import { FORM_KEY_FIELD } from "./schemas.ts";

const KEY = "3f2c8a4e-1b2d-4c3e-9f00-123456789abc";

describe("BookingForm", () => {
  it("carries the page's one-time key in a hidden field of the form", async () => {
    const Stub = createRoutesStub([
      {
        path: "/rendez-vous",
        Component: () => (
          <BookingForm
            action="/rendez-vous"
            formKey={KEY}
            week={{
              days: [{ date: "2026-11-24", slots: [{ start: "2026-11-24T08:00:00.000Z", time: "09:00", free: 1 }] }],
            }}
            booked={{
              modelSlug: null,
              modelName: null,
              brandPath: null,
              family: null,
              repairId: null,
              repairLabel: DIAGNOSIS_LABEL,
              euros: null,
              estimate: false,
              choices: [],
            }}
          />
        ),
      },
    ]);
    const { container } = render(<Stub initialEntries={["/rendez-vous"]} />);
    const submit = await screen.findByRole("button", { name: "Confirmer le rendez-vous" });
    const form = submit.closest("form")!;
    const field = form.querySelector<HTMLInputElement>(`input[name="${FORM_KEY_FIELD}"]`);
    expect(field).toMatchObject({ type: "hidden", value: KEY });
    expect(new FormData(form).get(FORM_KEY_FIELD)).toBe(KEY);
    expect(container.textContent).not.toContain(KEY);
  });
});
