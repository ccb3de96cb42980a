/**
 * Issue 40, « Customers of remote help » §2: asked « Mon ordinateur est très
 * lent, que faire ? », the offline assistant gives first steps the customer
 * can try, then the offer of a technician (the remote session or the shop),
 * not the repairs' list; a price question still gets the catalogue.
 */
import { describe, expect, it } from "vitest";
import { brands as SEED_BRANDS } from "#app/catalogue/index.ts";
import { offlineAnswer } from "./offline.ts";

/** The numbered steps of an answer, without their numbers. */
const stepsOf = (answer: string) =>
  answer
    .split("\n")
    .filter((line) => /^\d+\. /.test(line))
    .map((line) => line.replace(/^\d+\. /, ""));

describe("a slow device, offline", () => {
  it.each([
    "Mon ordinateur est très lent, que faire ?",
    "Mon PC rame depuis quelques jours",
    "Lenteur de mon ordinateur portable",
    "Mon Mac est ralenti depuis la mise à jour",
  ])("%s → first steps to try, then a technician", (question) => {
    const answer = offlineAnswer(question, SEED_BRANDS);
    const steps = stepsOf(answer);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    for (const step of [
      /^Redémarrez/,
      /^Fermez les programmes et les onglets/,
      /espace disque/,
      /mises à jour/,
      /démarrage/,
      /antivirus/,
    ])
      expect(
        steps.some((line) => step.test(line)),
        String(step),
      ).toBe(true);
    // The steps come first, the technician after them.
    const lines = answer.split("\n");
    const technician = lines.findIndex((line) => line.includes("« Parler à un technicien »"));
    expect(technician).toBeGreaterThan(lines.findIndex((line) => line.startsWith("1. ")));
    expect(lines[technician]).toMatch(/un technicien peut s'en occuper/);
    expect(answer).toContain("[Prendre rendez-vous pour un diagnostic gratuit](/rendez-vous)");
    // No repairs' list, no price.
    expect(answer).not.toContain("Nous réparons les ordinateurs");
    expect(answer).not.toMatch(/\d+\s?€/);
  });

  it("gives a phone its own steps, and the booking form for the model named", () => {
    const answer = offlineAnswer("Mon iPhone 13 est devenu très lent", SEED_BRANDS);
    expect(stepsOf(answer)[0]).toMatch(/^Redémarrez l'appareil/);
    expect(answer).toContain("« Parler à un technicien »");
    expect(answer).toContain("[Prendre rendez-vous : iPhone 13](/rendez-vous?modele=iphone-13)");
    expect(answer).not.toMatch(/\d+\s?€/);
  });

  it("still answers a price, a named repair or slow charging from the catalogue", () => {
    expect(offlineAnswer("Mon PC est lent, combien pour le réparer ?", SEED_BRANDS)).toContain("/services/pc-repair");
    expect(stepsOf(offlineAnswer("Mon iPhone 13 charge lentement, la batterie ?", SEED_BRANDS))).toEqual([]);
    expect(stepsOf(offlineAnswer("Mon ordinateur a un virus", SEED_BRANDS))).toEqual([]);
  });
});
