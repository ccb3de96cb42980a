/**
 * Issue 18 §4: the assistant points to the booking form pre-filled for the
 * model (and the repair) it found, in the catalogue lookup, the offline
 * answer and the AI tool's JSON; never for several candidates or a model the
 * catalogue lacks. The chat panel turns the path into a link.
 */
import { describe, expect, it } from "vitest";
import { SITE_PATH } from "#app/assistant/assistant-panel.tsx";
import { bookingPath } from "#app/booking/paths.ts";
import { lookupRepairPrice } from "./knowledge.ts";
import { BOOKING_LABEL, offlineAnswer } from "./offline.ts";
import { runTool } from "./prompt.ts";
import { brands as SEED_BRANDS } from "#app/catalogue/index.ts";

describe("the booking link of a price answer", () => {
  it("books the model and the one repair named", () => {
    const lookup = lookupRepairPrice("Combien coûte le port HDMI d'une PS5 ?", SEED_BRANDS);
    expect(lookup.kind).toBe("found");
    if (lookup.kind !== "found") return;
    expect(lookup.booking).toBe(bookingPath("ps5", "port-hdmi"));
    expect(lookup.booking).toBe("/rendez-vous?modele=ps5&reparation=port-hdmi");
  });

  it("books the model only when no repair or several are named, so the form offers them", () => {
    for (const question of ["Vos tarifs pour un iPhone 13 ?", "Prix de l'écran et de la batterie d'un iPhone 13"]) {
      const lookup = lookupRepairPrice(question, SEED_BRANDS);
      expect(lookup.kind, question).toBe("found");
      if (lookup.kind === "found") expect(lookup.booking, question).toBe("/rendez-vous?modele=iphone-13");
    }
  });

  it("is written by the offline answer after the price page, in the answer's wording", () => {
    const answer = offlineAnswer("Combien coûte le port HDMI d'une PS5 ?", SEED_BRANDS);
    const lines = answer.split("\n");
    expect(lines.at(-1)).toBe(`${BOOKING_LABEL} : /rendez-vous?modele=ps5&reparation=port-hdmi`);
    expect(lines.at(-2)).toContain("/services/playstation-repair#ps5");
    expect(offlineAnswer("Vos tarifs pour un iPhone 13 ?", SEED_BRANDS)).toContain(
      "Prendre rendez-vous : /rendez-vous?modele=iphone-13",
    );
  });

  it("is not offered for several candidates, a model the catalogue lacks, or a fact question", () => {
    for (const question of [
      "Prix de l'écran d'un iPhone SE",
      "Réparez-vous l'écran d'un Nokia 3310 ?",
      "Vos horaires ?",
    ])
      expect(offlineAnswer(question, SEED_BRANDS), question).not.toContain("/rendez-vous");
  });

  it("is in the AI tool's JSON result, for the model to cite", () => {
    const grounded = new Set<number>();
    const result = JSON.parse(
      runTool(
        { id: "1", name: "lookup_repair_price", arguments: JSON.stringify({ question: "port HDMI PS5" }) },
        grounded,
        SEED_BRANDS,
      ),
    ) as { kind: string; booking?: string };
    expect(result).toMatchObject({ kind: "found", booking: "/rendez-vous?modele=ps5&reparation=port-hdmi" });
    expect(grounded.size).toBeGreaterThan(0);
  });

  it("is in each result when the question names several devices, every price grounded", () => {
    const grounded = new Set<number>();
    const question = "la batterie d'un iPhone 11 et d'un iPhone 12";
    const result = JSON.parse(
      runTool({ id: "1", name: "lookup_repair_price", arguments: JSON.stringify({ question }) }, grounded, SEED_BRANDS),
    ) as { kind: string; results: { kind: string; booking: string; model: { repairs: { euros: number }[] } }[] };
    expect(result.kind).toBe("several");
    expect(result.results.map((found) => found.booking)).toEqual([
      "/rendez-vous?modele=iphone-11&reparation=batterie",
      "/rendez-vous?modele=iphone-12&reparation=batterie",
    ]);
    for (const found of result.results) expect(grounded.has(found.model.repairs[0]!.euros)).toBe(true);
  });

  it("becomes one link in the chat panel, query included, next to the price page's", () => {
    const text =
      "Le détail est sur la page /services/playstation-repair#ps5.\nPrendre rendez-vous : " +
      bookingPath("ps5", "port-hdmi");
    const links = text.split(SITE_PATH).filter((_, index) => index % 2 === 1);
    expect(links).toEqual(["/services/playstation-repair#ps5", "/rendez-vous?modele=ps5&reparation=port-hdmi"]);
  });
});
