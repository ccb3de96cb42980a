// @vitest-environment happy-dom
/**
 * Issue 40, « the agenda opens on the past week on a Sunday and hides the next booking »: with the clock fixed
 * on a Sunday, the « Rendez-vous » view opens on that day and the 6 after it (Monday's booking shown without
 * navigating), the shop's date decides the first day (Sunday 23:30 UTC is already Monday in Paris), and
 * « Semaine suivante » / « précédente » move by 7 days. An answer for a range asked earlier, arriving after the
 * last one, is not shown (a CI run saw Monday's booking replaced by Sunday's late, empty answer).
 */
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppointmentView } from "./context.ts";
import { AgendaView } from "./agenda-view.tsx";

const MONDAY_BOOKING: AppointmentView = {
  id: "a1",
  status: "requested",
  startsAt: "2026-11-30T08:00:00.000Z",
  endsAt: "2026-11-30T08:30:00.000Z",
  modelSlug: "iphone-13",
  modelName: "iPhone 13",
  repairId: "ecran",
  repairLabel: "Écran",
  priceEuros: 129,
  priceEstimate: false,
  customerName: "Inès Morel",
  email: "ines@exemple.fr",
  phone: "06 12 34 56 78",
  note: null,
  cancelledBy: null,
  createdAt: "2026-11-28T10:00:00.000Z",
};

/** The agenda list stubbed: Monday's booking whenever the range holds it; the ranges asked, in order. */
function stubAgenda(): string[] {
  const ranges: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = new URL(String(input), "http://atelier.test");
    // The cards' own reads (a repair opened from an appointment) are not the agenda's.
    if (url.pathname !== "/api/agenda") return Response.json({ message: "?" }, { status: 404 });
    const from = url.searchParams.get("from")!;
    const to = url.searchParams.get("to")!;
    ranges.push(`${from}→${to}`);
    const holds = from <= "2026-11-30" && "2026-11-30" < to;
    return Response.json({ appointments: holds ? [MONDAY_BOOKING] : [] });
  });
  return ranges;
}

const dayHeadings = () => screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent);

describe("the agenda's first day (issue 40)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));
  afterEach(() => vi.useRealTimers());

  it("opens on a Sunday and the 6 days after it, the Monday booking in view", async () => {
    vi.setSystemTime(new Date("2026-11-29T10:00:00+01:00"));
    const ranges = stubAgenda();
    render(<AgendaView socket={null} />);
    expect(await screen.findByText("Inès Morel", { exact: false })).toBeInTheDocument();
    expect(ranges).toEqual(["2026-11-29→2026-12-06"]);
    const days = dayHeadings();
    expect(days).toHaveLength(7);
    expect(days[0]).toBe("Aujourd'hui, dimanche 29 novembre 2026(0 rendez-vous)");
    expect(days[1]).toBe("lundi 30 novembre 2026(1 rendez-vous)");
    expect(days[6]).toMatch(/^samedi 5 décembre 2026/);
    expect(screen.getByText("Du dimanche 29 novembre 2026 au samedi 5 décembre 2026")).toBeInTheDocument();
    const monday = screen.getByRole("heading", { level: 3, name: /^lundi 30 novembre/ }).parentElement!;
    expect(within(monday).getByText("Inès Morel", { exact: false })).toBeInTheDocument();
  });

  it("takes the day in the shop's time zone: Sunday 23:30 UTC opens on Monday", async () => {
    vi.setSystemTime(new Date("2026-11-29T23:30:00Z"));
    const ranges = stubAgenda();
    render(<AgendaView socket={null} />);
    expect(await screen.findByText("Inès Morel", { exact: false })).toBeInTheDocument();
    expect(ranges).toEqual(["2026-11-30→2026-12-07"]);
    expect(dayHeadings()[0]).toBe("Aujourd'hui, lundi 30 novembre 2026(1 rendez-vous)");
  });

  it("moves by 7 days with « Semaine suivante » and « Semaine précédente », back to today with « Aujourd'hui »", async () => {
    vi.setSystemTime(new Date("2026-11-29T10:00:00+01:00"));
    const ranges = stubAgenda();
    render(<AgendaView socket={null} />);
    await screen.findByText("Inès Morel", { exact: false });
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Semaine suivante" }));
    expect(await screen.findByText("Du dimanche 6 décembre 2026 au samedi 12 décembre 2026")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Semaine précédente" }));
    await user.click(screen.getByRole("button", { name: "Semaine précédente" }));
    expect(await screen.findByText("Du dimanche 22 novembre 2026 au samedi 28 novembre 2026")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Aujourd'hui" }));
    expect(await screen.findByText("Du dimanche 29 novembre 2026 au samedi 5 décembre 2026")).toBeInTheDocument();
    expect(ranges).toEqual([
      "2026-11-29→2026-12-06",
      "2026-12-06→2026-12-13",
      "2026-11-29→2026-12-06",
      "2026-11-22→2026-11-29",
      "2026-11-29→2026-12-06",
    ]);
  });

  it("shows the day last asked when an earlier answer arrives after it (« Jour suivant » clicked quickly)", async () => {
    vi.setSystemTime(new Date("2026-11-29T10:00:00+01:00"));
    // Every answer but Monday's is held until released: Sunday's empty day then arrives last.
    const held: (() => void)[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = new URL(String(input), "http://atelier.test");
      if (url.pathname !== "/api/agenda") return Response.json({ message: "?" }, { status: 404 });
      const from = url.searchParams.get("from")!;
      const to = url.searchParams.get("to")!;
      const holds = from <= "2026-11-30" && "2026-11-30" < to;
      const answer = () => Response.json({ appointments: holds ? [MONDAY_BOOKING] : [] });
      if (from === "2026-11-30") return answer();
      return new Promise<Response>((resolve) => held.push(() => resolve(answer())));
    });
    render(<AgendaView socket={null} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Jour" }));
    await user.click(screen.getByRole("button", { name: "Jour suivant" }));
    expect(await screen.findByText("Inès Morel", { exact: false })).toBeInTheDocument();
    expect(held).toHaveLength(2);
    // The held answers land (their JSON read and their state set) within the act.
    await act(async () => {
      for (const release of held) release();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(dayHeadings()).toEqual(["lundi 30 novembre 2026(1 rendez-vous)"]);
    expect(screen.getByText("Inès Morel", { exact: false })).toBeInTheDocument();
  });

  it("keeps a refused « Confirmer »'s reason on screen after the agenda is read again", async () => {
    vi.setSystemTime(new Date("2026-11-29T10:00:00+01:00"));
    const ranges = stubAgenda();
    const answer = vi.mocked(globalThis.fetch).getMockImplementation()!;
    const refusal = "Ce rendez-vous a été annulé par le client.";
    vi.mocked(globalThis.fetch).mockImplementation(async (input, init) =>
      String(input) === "/api/agenda/a1/confirm"
        ? Response.json({ message: refusal }, { status: 409 })
        : answer(input, init),
    );
    render(<AgendaView socket={null} />);
    await screen.findByText("Inès Morel", { exact: false });
    await userEvent.click(screen.getByRole("button", { name: "Confirmer" }));
    // Read again after the refusal (the appointment may have changed), and the reason still said.
    await vi.waitFor(() => expect(ranges).toHaveLength(2));
    expect(await screen.findByRole("alert")).toHaveTextContent(refusal);
  });
});
