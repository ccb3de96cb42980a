/**
 * The assistant's floors on the generated evaluation set (issue 17 §3), the
 * offline assistant answering every question: 100 % on exact names, ≥ 97 %
 * with a typo or told as a symptom (issue 18), 0 wrong prices anywhere,
 * 100 % on facts and on devices the shop does not repair. `node bench/assistant-accuracy.ts` prints the figures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { brands } from "#app/catalogue/index.ts";
import { modelEntries } from "#app/catalogue/shapes.ts";
import { offlineReply } from "../offline.ts";
import { evaluate, type CategoryReport } from "./grade.ts";
import { EXACT_PHRASINGS, FACT_QUESTIONS_TOPICS, generateEvaluationSet, PRICE_PHRASINGS } from "./set.ts";

const cases = generateEvaluationSet(brands);

describe("the generated evaluation set", () => {
  it("asks about every model × repair in five phrasings, every fact topic, and devices not repaired", () => {
    const offers = modelEntries(brands).reduce((sum, { model }) => sum + model.repairs.length, 0);
    for (const phrasing of EXACT_PHRASINGS) expect(cases.filter((c) => c.category === phrasing)).toHaveLength(offers);
    // A typo needs a word of 4 letters or two words: "DS" and "Wii" have neither.
    expect(cases.filter((c) => c.category === "faute-de-frappe").length).toBeGreaterThan(offers * 0.95);
    const topics = new Set(cases.flatMap((c) => (c.category === "fait" ? [c.topic] : [])));
    expect([...topics].sort()).toEqual([...FACT_QUESTIONS_TOPICS].sort());
    expect(cases.filter((c) => c.category === "hors-catalogue").length).toBeGreaterThanOrEqual(90);
    expect(new Set(cases.map((c) => c.question)).size).toBeGreaterThan(cases.length * 0.99);
  });
});

describe("the offline assistant on the evaluation set", () => {
  let reports: Record<string, CategoryReport>;
  // Thirteen thousand questions: seconds alone, more beside other test files on 2 cores.
  beforeAll(async () => {
    reports = await evaluate(cases, (question) => offlineReply(question, brands));
  }, 180_000);
  const report = async (category: string) => {
    const found = reports[category];
    if (!found) throw new Error(`catégorie absente : ${category}`);
    return found;
  };

  it.each(EXACT_PHRASINGS.map((category) => [category]))(
    "answers every « %s » question with the exact price",
    async (category) => {
      const result = await report(category);
      expect(result.examples).toEqual([]);
      expect(result.accuracy).toBe(1);
    },
  );

  it("answers at least 97 % of the questions with a typo, and none wrongly", async () => {
    const result = await report("faute-de-frappe");
    expect(result.accuracy).toBeGreaterThanOrEqual(0.97);
    expect(result.wrong).toBe(0);
  });

  it("answers at least 97 % of the questions told as a symptom (« ne lit plus les disques »), and none wrongly", async () => {
    const result = await report("symptome");
    expect(result.total).toBeGreaterThan(1000);
    expect(result.accuracy).toBeGreaterThanOrEqual(0.97);
    expect(result.wrong).toBe(0);
  });

  it("never gives a wrong price, in any category", async () => {
    for (const category of [...PRICE_PHRASINGS, "fait", "hors-catalogue"]) expect(reports[category]!.wrong).toBe(0);
  });

  it("answers every fact question from the configuration, and every device not repaired with the quote form", async () => {
    expect((await report("fait")).examples).toEqual([]);
    expect((await report("hors-catalogue")).examples).toEqual([]);
  });
});
