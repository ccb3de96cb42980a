// @vitest-environment happy-dom
/**
 * Issue 30 §3: the booking summary explains « X € après bonus réparation »
 * beside the line, with the official link, and only when the line shows.
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

function show(bonus: string | null) {
  const Stub = createRoutesStub([
    { path: "/rendez-vous", Component: () => <BookingSummary booked={BOOKED} bonus={bonus} /> },
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
});
