/**
 * Symptoms rewritten into the repair they mean (`./symptoms.ts`), before the
 * assistant matches a question.
 */
import { describe, expect, it } from "vitest";
import { rephraseSymptoms } from "./symptoms.ts";

const words = (text: string) =>
  rephraseSymptoms(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

describe("rephraseSymptoms", () => {
  it.each([
    ["Ma PS5 ne lit plus les disques", "lecteur"],
    ["ma xbox ne lit plus les jeux", "lecteur"],
    ["La vitre de mon iPhone 13 est fissurée", "ecran"],
    ["Mon Galaxy S21 ne tient plus la charge", "batterie"],
    ["il se décharge en deux heures", "batterie"],
    ["mon iPhone 12 ne se recharge plus", "charge"],
    ["ma PS4 surchauffe", "ventilateur"],
    ["elle fait un bruit énorme", "ventilateur"],
  ])("%s → names « %s »", (text, word) => {
    expect(words(text)).toContain(word);
  });

  it("keeps the named part when the customer names it", () => {
    expect(words("le disque dur de ma PS5")).toEqual(["le", "disque", "dur", "de", "ma", "ps5"]);
    expect(words("la vitre arrière de mon iPhone 13")).toContain("vitre");
    expect(words("la vitre de mon iPhone 13 au dos")).toContain("vitre");
  });

  it("reads « prise en charge » as care, not as charging", () => {
    expect(words("Vous prenez en charge les iPhone 13 ?")).not.toContain("charge");
  });

  it("leaves a question without symptom as it is, folded", () => {
    expect(rephraseSymptoms("Écran iPhone 13")).toBe("ecran iphone 13");
  });
});
