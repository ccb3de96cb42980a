/**
 * The evaluation set through an AI provider (issue 17 §3): a fake
 * OpenAI-compatible server plays a model that always calls our tools
 * (`lookup_repair_price` with the customer's question, or `shop_information`
 * for a fact) and writes its answer from what they return — sometimes with
 * an amount of its own, which the price guard must replace. Graded like the
 * offline assistant on what the tools returned and on every amount shown; the
 * model's wording is not graded. One price question in ten, every fact, every
 * device not repaired.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brands } from "#app/catalogue/index.ts";
import { startFakeOpenAI, type FakeOpenAI, type ScriptedReply } from "#tests/support/fake-openai.ts";
import { factTopics } from "../facts.ts";
import type { PriceLookup } from "../knowledge.ts";
import { createOpenAICompatibleProvider } from "../openai-compatible.ts";
import { amountsIn } from "../price-guard.ts";
import { generateReply } from "../reply.ts";
import { evaluate, type Answered, type CategoryReport } from "./grade.ts";
import { generateEvaluationSet, PRICE_PHRASINGS } from "./set.ts";

/** An amount no tool ever returns, which the fake model slips into one answer in seven. */
const INVENTED = "1 234 €";

/** How many answers the fake model slipped `INVENTED` into. */
let inventions = 0;

/** The fake model: a tool call for a new question, then an answer written from the tool's JSON. */
function modelReply(body: { messages: { role: string; content: string | null }[] }, turn: number): ScriptedReply {
  const last = body.messages.at(-1)!;
  if (last.role === "user") {
    const question = last.content ?? "";
    return factTopics(question).length > 0
      ? { toolCall: { name: "shop_information", arguments: {} } }
      : { toolCall: { name: "lookup_repair_price", arguments: { question } } };
  }
  const result = JSON.parse(last.content ?? "{}") as Record<string, unknown>;
  const invented = turn % 7 === 0 ? ` Ou peut-être ${INVENTED}.` : "";
  if (invented) inventions++;
  if (!("kind" in result)) {
    const facts = Object.values(result).flat().map(String);
    return { text: `Voici nos informations :\n${facts.join("\n")}${invented}` };
  }
  // Several devices named: the answer quotes each result.
  const lookups = result.kind === "several" ? (result.results as PriceLookup[]) : [result as PriceLookup];
  if (lookups.length > 1) {
    const found = lookups.flatMap((each) => (each.kind === "found" ? [each.model] : []));
    return {
      text: `${found.map((model) => `${model.model} : ${model.repairs.map((r) => `${r.repair} : ${r.price}`).join(", ")}`).join("\n")}${invented}`,
    };
  }
  const lookup = lookups[0]!;
  if (lookup.kind === "not-found") {
    return {
      text: `Je n'ai pas trouvé ce modèle dans notre catalogue de réparations. Devis gratuit sur /contact.${invented}`,
    };
  }
  const models = lookup.kind === "found" ? [lookup.model] : lookup.candidates;
  const lines = models.map(
    (model) => `${model.model} : ${model.repairs.map((r) => `${r.repair} : ${r.price}`).join(", ")}`,
  );
  // Issue 18 §4: the model cites the booking form's path the tool gave.
  if (lookup.kind === "found") lines.push(`Prendre rendez-vous : ${lookup.booking}`);
  return { text: `${lines.join("\n")}${invented}` };
}

describe("the evaluation set through an AI provider and our tools", () => {
  let fake: FakeOpenAI;
  let turn = 0;
  let replaced = 0;
  /** Answers from a model found, and those of them showing its booking path as the tool gave it. */
  const bookings = { found: 0, shown: 0 };
  let reports: Record<string, CategoryReport>;
  const cases = generateEvaluationSet(brands).filter(
    (test, index) => !PRICE_PHRASINGS.includes(test.category as never) || index % 10 === 0,
  );

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.respond = (body) => modelReply(body, turn++);
    const provider = createOpenAICompatibleProvider({
      baseURL: fake.baseURL,
      model: "faux",
      stream: true,
      timeoutMs: 5000,
    });
    reports = await evaluate(cases, async (question): Promise<Answered> => {
      const requestsBefore = fake.requests.length;
      const outcome = await generateReply({
        provider,
        history: [{ role: "user", content: question }],
        grounded: new Set(),
        brands: brands,
        onText: () => {},
      });
      replaced += outcome.replaced.length;
      // What the tools returned, as the model read it in its second request.
      const lookups = fake.requests.slice(requestsBefore).flatMap((request) =>
        (request.messages as { role: string; content: string }[])
          .filter((message) => message.role === "tool")
          .map((message) => JSON.parse(message.content) as PriceLookup | Record<string, unknown>)
          .flatMap((result) => (result.kind === "several" ? (result.results as PriceLookup[]) : [result]))
          .filter((result): result is PriceLookup => "kind" in result),
      );
      const last = lookups.at(-1);
      if (last?.kind === "found") {
        bookings.found++;
        // Whole: the guard neither cut it nor took its digits for an amount.
        if (outcome.content.split(/\s+/).includes(last.booking)) bookings.shown++;
      }
      return { text: outcome.content, lookups: lookups.slice(-1) };
    });
  }, 120_000);
  afterAll(() => fake.close());

  it("finds the asked model's price through the tool for every exact-name question, and never a wrong one", () => {
    for (const category of ["formel", "bref", "possessif", "sans-marque"]) {
      expect(reports[category]!.correct, category).toBe(reports[category]!.total);
    }
    for (const report of Object.values(reports)) expect(report.wrong).toBe(0);
    expect(reports["faute-de-frappe"]!.accuracy).toBeGreaterThanOrEqual(0.97);
  });

  it("answers facts from shop_information and devices not repaired with the quote form", () => {
    expect(reports.fait!.examples).toEqual([]);
    expect(reports["hors-catalogue"]!.examples).toEqual([]);
  });

  it("lets the booking form's path the tool gave through to the customer, untouched (issue 18 §4)", () => {
    expect(bookings.found).toBeGreaterThan(0);
    expect(bookings.shown).toBe(bookings.found);
  });

  it("replaced every amount the model invented, before the customer saw it", () => {
    expect(inventions).toBeGreaterThan(cases.length / 10);
    expect(replaced).toBe(inventions);
    expect(amountsIn(INVENTED)).toEqual([1234]);
  });
});
