/**
 * The assistant's replies (issue 7) through the OpenAI-compatible provider
 * (issue 14) against a fake OpenAI-compatible server on 127.0.0.1: the spec's
 * parameters and history limit, streamed and JSON replies, retries and their
 * delays (fake clock), the spec's failure messages, a tool call round trip,
 * and the price check.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ASSISTANT_MESSAGES, assistantShopMessages } from "#app/assistant/protocol.ts";
import { defaultShop } from "#app/config/shop.ts";

const SHOP_MESSAGES = assistantShopMessages(defaultShop);
import { startFakeOpenAI, type FakeOpenAI } from "#tests/support/fake-openai.ts";
import { lookupRepairPrice } from "./knowledge.ts";
import { createOpenAICompatibleProvider, type OpenAICompatibleConfig } from "./openai-compatible.ts";
import { generateReply, type ChatTurn } from "./reply.ts";
import { brands as SEED_BRANDS } from "#app/catalogue/index.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.authorizations.length = 0;
});

const config = (overrides: Partial<OpenAICompatibleConfig> = {}): OpenAICompatibleConfig => ({
  apiKey: "sk-test-cle-secrete",
  baseURL: fake.baseURL,
  model: "modele-de-test",
  stream: true,
  timeoutMs: 5_000,
  ...overrides,
});

async function reply(history: ChatTurn[], overrides: Partial<OpenAICompatibleConfig> = {}, grounded: number[] = []) {
  const pieces: string[] = [];
  const waits: number[] = [];
  const outcome = await generateReply({
    provider: createOpenAICompatibleProvider(config(overrides)),
    history,
    grounded: new Set(grounded),
    brands: SEED_BRANDS,
    onText: (text) => pieces.push(text),
    sleep: async (ms) => void waits.push(ms),
  });
  return { outcome, pieces, waits };
}

const ask = (content: string): ChatTurn[] => [{ role: "user", content }];

describe("generateReply", () => {
  it("streams the reply piece by piece with the spec's parameters and at most 10 history entries", async () => {
    fake.script({ text: "Redémarrez la box, puis attendez deux minutes." });
    const history: ChatTurn[] = Array.from({ length: 14 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i}`,
    }));
    history.push({ role: "user", content: "Mon Wi-Fi ne marche plus." });
    const { outcome, pieces } = await reply(history);

    expect(outcome).toMatchObject({
      kind: "answer",
      content: "Redémarrez la box, puis attendez deux minutes.",
      calls: 1,
    });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(outcome.content);
    const [request] = fake.requests;
    expect(request).toMatchObject({ model: "modele-de-test", temperature: 0.7, max_tokens: 500, stream: true });
    expect(request!.presence_penalty).toEqual(expect.any(Number));
    expect(request!.frequency_penalty).toEqual(expect.any(Number));
    const messages = request!.messages as { role: string; content: string }[];
    expect(messages).toHaveLength(11);
    expect(messages[0]!.role).toBe("system");
    expect(messages[0]!.content).toMatch(/Windows, macOS et Linux/);
    expect(messages[0]!.content).toMatch(/80 € de l'heure/);
    expect(messages.at(-1)).toEqual({ role: "user", content: "Mon Wi-Fi ne marche plus." });
    expect(messages[1]).toEqual({ role: "assistant", content: "message 5" });
    expect(fake.authorizations[0]).toBe("Bearer sk-test-cle-secrete");
  });

  it("takes a JSON (not streamed) reply too", async () => {
    fake.script({ text: "Essayez un autre câble USB." });
    const { outcome, pieces } = await reply(ask("Mon téléphone ne charge plus."), { stream: false });
    expect(outcome).toMatchObject({ kind: "answer", content: "Essayez un autre câble USB." });
    expect(pieces).toEqual(["Essayez un autre câble USB."]);
    expect(fake.requests[0]!.stream).toBe(false);
  });

  it("retries a 429 after 1000 ms and then answers", async () => {
    fake.script({ status: 429 }, { text: "Voilà." });
    const { outcome, waits } = await reply(ask("Bonjour"));
    expect(outcome).toMatchObject({ kind: "answer", content: "Voilà.", calls: 2 });
    expect(waits).toEqual([1000]);
  });

  it("gives the spec's message with the phone after 3 failed attempts, waiting 1000 then 2000 ms", async () => {
    fake.script({ status: 503 }, { status: 500 }, { status: 408 });
    const { outcome, pieces, waits } = await reply(ask("Bonjour"));
    expect(outcome).toMatchObject({
      kind: "retries-exhausted",
      content: SHOP_MESSAGES.retriesExhausted,
      calls: 3,
    });
    expect(outcome.content).toContain("01 99 00 12 34");
    expect(pieces).toEqual([SHOP_MESSAGES.retriesExhausted]);
    expect(waits).toEqual([1000, 2000]);
  });

  it("does not retry a 400 and gives the other message, with phone and e-mail", async () => {
    fake.script({ status: 400 }, { text: "jamais lu" });
    const { outcome, waits } = await reply(ask("Bonjour"));
    expect(outcome).toMatchObject({ kind: "failed", content: SHOP_MESSAGES.failed, calls: 1 });
    expect(outcome.content).toContain("contact@atelier-informatique.example");
    expect(waits).toEqual([]);
    fake.requests.length = 0;
    await reply(ask("Bonjour")); // the unread scripted reply goes
  });

  it("retries a connection error", async () => {
    const { outcome, waits } = await reply(ask("Bonjour"), { baseURL: "http://127.0.0.1:9/v1" });
    expect(outcome.kind).toBe("retries-exhausted");
    expect(waits).toEqual([1000, 2000]);
  });

  it("gives up on a stream that stalls after its headers, and asks again", async () => {
    // Headers and a first empty chunk at once, then nothing for far longer than the call's timeout.
    fake.script({ text: "Réponse trop lente", delayMs: 3_000 }, { text: "Réponse à temps." });
    const { outcome, waits } = await reply(ask("Bonjour"), { timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: "answer", content: "Réponse à temps.", calls: 2 });
    expect(waits).toEqual([1000]);
  });

  it("answers a reply without content with the spec's message", async () => {
    fake.script({ text: "" });
    const { outcome } = await reply(ask("Bonjour"));
    expect(outcome).toMatchObject({ kind: "empty", content: ASSISTANT_MESSAGES.emptyReply });
  });

  it("runs a tool call: the model asks the catalogue for a price and quotes it", async () => {
    const catalogue = lookupRepairPrice("port HDMI PS5", SEED_BRANDS);
    if (catalogue.kind !== "found") throw new Error("catalogue");
    const price = catalogue.model.repairs[0]!;
    fake.script(
      { toolCall: { name: "lookup_repair_price", arguments: { question: "port HDMI PS5" } } },
      { text: `Le remplacement du port HDMI d'une PS5 coûte ${price.price}. Détails : ${catalogue.model.link}` },
    );
    const { outcome } = await reply(ask("Combien coûte le port HDMI d'une PS5 ?"));
    expect(outcome.kind).toBe("answer");
    expect(outcome.content).toContain(`${price.price}`);
    expect(outcome.replaced).toEqual([]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ function: expect.objectContaining({ name: "lookup_repair_price" }) }),
      ]),
    );
    const second = fake.requests[1]!.messages as { role: string; content: string | null; tool_call_id?: string }[];
    const tool = second.find((message) => message.role === "tool");
    expect(JSON.parse(tool!.content!)).toMatchObject({
      kind: "found",
      model: { model: "PS5", repairs: [{ repair: "Port HDMI", euros: price.euros }] },
    });
  });

  it("runs a tool call from a JSON (not streamed) answer too", async () => {
    fake.script(
      { toolCall: { name: "shop_information", arguments: {} } },
      { text: "Nous sommes ouverts du lundi au samedi." },
    );
    const { outcome } = await reply(ask("Quels sont vos horaires ?"), { stream: false });
    expect(outcome).toMatchObject({ kind: "answer", content: "Nous sommes ouverts du lundi au samedi.", calls: 2 });
    const second = fake.requests[1]!.messages as { role: string; content: string | null; tool_calls?: unknown[] }[];
    expect(second.find((message) => message.role === "assistant" && message.tool_calls)).toMatchObject({
      content: null,
    });
    expect(second.find((message) => message.role === "tool")).toBeDefined();
  });

  it("does not retry a call the customer aborted", async () => {
    // Aborted before any text arrived, so only the kind of error can stop a retry.
    const controller = new AbortController();
    controller.abort();
    const waits: number[] = [];
    const outcome = await generateReply({
      provider: createOpenAICompatibleProvider(config()),
      history: ask("Bonjour"),
      grounded: new Set(),
      brands: SEED_BRANDS,
      onText: () => {},
      sleep: async (ms) => void waits.push(ms),
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({ kind: "failed", content: SHOP_MESSAGES.failed, calls: 1 });
    expect(waits).toEqual([]);
  });

  it("replaces a price no tool returned, even when it arrives cut in pieces", async () => {
    fake.script({
      text: "L'écran coûte 249 € environ, le diagnostic 0 €.",
      pieces: ["L'écran coûte 2", "4", "9", " ", "€ env", "iron, le diagnostic 0 €."],
    });
    const { outcome, pieces } = await reply(ask("Prix d'un écran de Galaxy S99 ?"));
    expect(outcome.content).toBe(
      `L'écran coûte ${ASSISTANT_MESSAGES.unsupportedPrice} environ, le diagnostic ${ASSISTANT_MESSAGES.unsupportedPrice}.`,
    );
    expect(pieces.join("")).toBe(outcome.content);
    expect(pieces.join("")).not.toMatch(/249/);
    expect(outcome.replaced).toEqual([249, 0]);
  });

  it("keeps amounts grounded earlier in the conversation and the technician's hourly rate", async () => {
    fake.script({ text: "Comme dit plus haut, à partir de 89 €, ou un technicien à 80 € de l'heure." });
    const { outcome } = await reply(ask("Et donc ?"), {}, [89]);
    expect(outcome.content).toBe("Comme dit plus haut, à partir de 89 €, ou un technicien à 80 € de l'heure.");
  });
});
