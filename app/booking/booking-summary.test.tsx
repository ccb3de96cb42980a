// @vitest-environment happy-dom
/**
 * Issue 30 §3: the booking summary explains « X € après bonus réparation »
 * beside the line, with the official link, and only when the line shows.
 * Issue 40: it is the page's second heading level (under « Prendre rendez-vous »), and says once that the
 * price is confirmed after the diagnosis.
 */
import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { BookedRepair } from "./booked-repair.server.ts";
import { BookingSummary } from "./booking-summary.tsx";

const BOOKED: BookedRepair = {
  modelSlug: "iphone-13",
  modelName: "iPhone 13",
  brandPath: "/services/iphone-repair",
  family: "iphone",
  repairId: "ecran",
  repairLabel: "Écran",
  euros: 89,
  estimate: false,
  choices: [],
};

function show(bonus: string | null, booked: BookedRepair = BOOKED) {
  const Stub = createRoutesStub([
    { path: "/rendez-vous", Component: () => <BookingSummary booked={booked} bonus={bonus} /> },
  ]);
  render(<Stub initialEntries={["/rendez-vous"]} />);
}

describe("BookingSummary", () => {
  it("explains the bonus réparation under its line", async () => {
    show("64 € après bonus réparation");
    expect(await screen.findByText("64 € après bonus réparation")).toBeInTheDocument();
    expect(screen.getByText(/^Qu'est-ce que le bonus réparation/u).closest("details")).not.toBeNull();
    expect(screen.getByRole("link", { name: /site officiel/u })).toHaveAttribute(
      "href",
      "https://www.ecologie.gouv.fr/politiques-publiques/bonus-reparation",
    );
  });

  it("says nothing of it without the line", async () => {
    show(null);
    await screen.findByRole("heading", { name: "Écran – iPhone 13" });
    expect(screen.queryByText(/bonus réparation/u)).toBeNull();
  });

  it("names the repair in a level-2 heading and says once that the price is confirmed after the diagnosis", async () => {
    for (const estimate of [false, true]) {
      show(null, { ...BOOKED, estimate });
      await screen.findByRole("heading", { level: 2, name: "Écran – iPhone 13" });
      expect(document.body.textContent!.match(/confirmé après le diagnostic/gu)).toHaveLength(1);
      expect(screen.getByText(/^à partir de 89/u)).toBeInTheDocument();
      if (estimate) expect(screen.getByText(/^Prix estimé/u)).toBeInTheDocument();
      document.body.replaceChildren();
    }
  });

  it("promises a quote for a free diagnosis, with nothing to confirm", async () => {
    show(null, {
      ...BOOKED,
      modelSlug: null,
      modelName: null,
      repairId: null,
      repairLabel: "Diagnostic gratuit",
      euros: null,
    });
    await screen.findByRole("heading", { level: 2, name: "Diagnostic gratuit" });
    expect(screen.getByText(/devis avant toute réparation/u)).toBeInTheDocument();
    expect(screen.queryByText(/confirmé après le diagnostic/u)).toBeNull();
  });
});
