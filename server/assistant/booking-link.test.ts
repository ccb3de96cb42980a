/**
 * Issue 18 §4: the assistant points to the booking form pre-filled for the
 * model (and the repair) it found, in the catalogue lookup, the offline
 * answer and the AI tool's JSON; never for several candidates or a model the
 * catalogue lacks. Issue 40: the answer names the link (« Prendre
 * rendez-vous : Port HDMI, PS5 »), and the chat panel shows that name.
 */
import { describe, expect, it } from "vitest";
import { replySegments } from "#app/assistant/reply-links.ts";
import { bookingPath } from "#app/booking/paths.ts";
import { lookupRepairPrice } from "./knowledge.ts";
import { offlineAnswer } from "./offline.ts";
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

  it("is written by the offline answer after the price page, named for the model and repair", () => {
    const answer = offlineAnswer("Combien coûte le port HDMI d'une PS5 ?", SEED_BRANDS);
    const lines = answer.split("\n");
    expect(lines.at(-1)).toBe("[Prendre rendez-vous : Port HDMI, PS5](/rendez-vous?modele=ps5&reparation=port-hdmi)");
    expect(lines.at(-2)).toContain("[Réparation PlayStation : PS5](/services/playstation-repair#ps5)");
    expect(offlineAnswer("Vos tarifs pour un iPhone 13 ?", SEED_BRANDS)).toContain(
      "[Prendre rendez-vous : iPhone 13](/rendez-vous?modele=iphone-13)",
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

  it("becomes one named link in the chat panel, query included, next to the price page's", () => {
    const text = offlineAnswer("Combien coûte le port HDMI d'une PS5 ?", SEED_BRANDS);
    const links = replySegments(text).filter((segment) => segment.kind === "link");
    expect(links).toEqual([
      { kind: "link", name: "Réparation PlayStation : PS5", to: "/services/playstation-repair#ps5" },
      { kind: "link", name: "Prendre rendez-vous : Port HDMI, PS5", to: bookingPath("ps5", "port-hdmi") },
    ]);
  });
});
