// @vitest-environment happy-dom
/**
 * Issue 30 §3: the bonus réparation's explanation says what bonus-reparation.json
 * holds (families, repairs, amount, the excluded back glass), opens without
 * JavaScript (a closed `<details>` in the server's HTML) and links to the
 * official page in a new tab, saying so.
 */
import { render, screen } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import bonusJson from "./bonus-reparation.json" with { type: "json" };
import { bonusFor } from "./bonus-reparation.ts";
import { BONUS_FACTS, BONUS_REPARATION_OFFICIAL_URL, BonusExplainer } from "./bonus-explainer.tsx";
import { FAMILY_REPAIRS, REPAIR_LABELS, type RepairId } from "./schema.ts";

const labelOf = (repair: RepairId) => REPAIR_LABELS[repair].toLowerCase();
/** "Caméra arrière" → "caméra": the text names the kind of repair, not the camera's side. */
const kindOf = (repair: RepairId) => labelOf(repair).replace(/^caméra (avant|arrière)$/u, "caméra");

describe("BONUS_FACTS", () => {
  it("says what bonus-reparation.json holds", () => {
    const entries = bonusJson.entries;
    expect(new Set(entries.map((entry) => entry.family))).toEqual(new Set(BONUS_FACTS.families));
    expect(new Set(entries.map((entry) => entry.euros))).toEqual(new Set([BONUS_FACTS.euros]));
    expect(new Set(entries.flatMap((entry) => entry.repairs.map((repair) => kindOf(repair as RepairId))))).toEqual(
      new Set(BONUS_FACTS.repairs),
    );
  });

  it("names as excluded a repair that every eligible family offers without a bonus", () => {
    for (const family of BONUS_FACTS.families) {
      const excluded = FAMILY_REPAIRS[family].filter((repair) => labelOf(repair) === BONUS_FACTS.notEligible);
      expect(excluded, family).toHaveLength(1);
      expect(bonusFor(family, excluded[0]!), family).toBeNull();
    }
  });
});

describe("BonusExplainer", () => {
  it("is a closed <details> in the server's HTML, readable without JavaScript", () => {
    const html = renderToStaticMarkup(<BonusExplainer />);
    expect(html).toMatch(/^<div[^>]*><details><summary[^>]*>Qu&#x27;est-ce que le bonus réparation/u);
    expect(html).not.toContain("<script");
  });

  it("explains the bonus, its conditions, and links to the official page in a new tab", () => {
    render(<BonusExplainer />);
    const details = screen.getByText(/^Qu'est-ce que le bonus réparation/u).closest("details")!;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent(/aide de l'État/u);
    expect(details).toHaveTextContent(/déduit directement de votre facture/u);
    expect(details).toHaveTextContent(/labellisé QualiRépar/u);
    expect(details).toHaveTextContent(/n'est plus sous garantie/u);
    expect(details).toHaveTextContent(/l'écran cassé, la batterie ou la caméra \(25\s€/u);
    expect(details).toHaveTextContent(/la vitre arrière, qui est esthétique, n'y ouvre pas droit/u);
    const link = screen.getByRole("link", { name: /site officiel.*nouvel onglet/u });
    expect(link).toHaveAttribute("href", BONUS_REPARATION_OFFICIAL_URL);
    expect(link).toHaveAttribute("target", "_blank");
    expect(link.getAttribute("rel")?.split(" ").sort()).toEqual(["noopener", "noreferrer"]);
  });

  it("adds a visible first sentence on request (a page showing it once, above its price cards)", () => {
    const { rerender } = render(<BonusExplainer />);
    expect(screen.queryByText(/tiennent compte du bonus réparation/u)).toBeNull();
    rerender(<BonusExplainer intro />);
    expect(screen.getByText(/tiennent compte du bonus réparation de l'État/u)).toBeInTheDocument();
  });
});
