/**
 * The assistant against a fake `ChatProvider` object, no HTTP (issue 14: the
 * provider is an interface in our own types): what it is asked (prompt,
 * history, settings, tools), the tool round trip, the price check, retries
 * on retryable `ChatProviderError`s only, and the spec's messages.
 */
import { describe, expect, it } from "vitest";
import { ASSISTANT_MESSAGES, assistantShopMessages } from "#app/assistant/protocol.ts";
import { defaultShop } from "#app/config/shop.ts";

const SHOP_MESSAGES = assistantShopMessages(defaultShop);
import { lookupRepairPrice } from "./knowledge.ts";
import { ChatProviderError, type ChatProvider, type ChatRequest, type ChatResult } from "./provider.ts";
import { CHAT_SETTINGS, generateReply, type ChatTurn } from "./reply.ts";
import { brands as SEED_BRANDS } from "#app/catalogue/index.ts";

/** One scripted answer: text pieces to stream and tool calls, or an error to throw. */
type Step = { pieces?: string[]; toolCalls?: ChatResult["toolCalls"] } | { error: unknown };

/** A provider answering each call with the next step, recording the requests it got. */
function fakeProvider(...steps: Step[]): ChatProvider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    logFields: { model: "faux" },
    async complete(request) {
      requests.push(request);
      const step = steps.shift() ?? { pieces: [] };
      if ("error" in step) throw step.error;
      for (const piece of step.pieces ?? []) request.onText(piece);
      return { text: (step.pieces ?? []).join(""), toolCalls: step.toolCalls ?? [] };
    },
  };
}

async function reply(provider: ChatProvider, history: ChatTurn[] = [{ role: "user", content: "Bonjour" }]) {
  const pieces: string[] = [];
  const waits: number[] = [];
  const outcome = await generateReply({
    provider,
    history,
    grounded: new Set(),
    brands: SEED_BRANDS,
    onText: (text) => pieces.push(text),
    sleep: async (ms) => void waits.push(ms),
  });
  return { outcome, pieces, waits };
}

const retryable = () => new ChatProviderError("surchargé", { retryable: true });

describe("generateReply with any ChatProvider", () => {
  it("sends the French prompt, the latest 10 turns, the spec's settings and both tools; streams the text", async () => {
    const provider = fakeProvider({ pieces: ["Redémarrez ", "la box."] });
    const history: ChatTurn[] = Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i}`,
    }));
    const { outcome, pieces } = await reply(provider, history);

    expect(outcome).toMatchObject({ kind: "answer", content: "Redémarrez la box.", calls: 1 });
    expect(pieces.join("")).toBe("Redémarrez la box.");
    const [request] = provider.requests;
    expect(request!.settings).toEqual({
      temperature: 0.7,
      maxTokens: 500,
      presencePenalty: CHAT_SETTINGS.presencePenalty,
      frequencyPenalty: CHAT_SETTINGS.frequencyPenalty,
    });
    expect(request!.messages).toHaveLength(11);
    expect(request!.messages[0]).toMatchObject({
      role: "system",
      content: expect.stringMatching(/Windows, macOS et Linux/),
    });
    expect(request!.messages[1]).toEqual({ role: "user", content: "message 2" });
    expect(request!.tools.map((tool) => tool.name)).toEqual(["lookup_repair_price", "shop_information"]);
  });

  it("runs the model's tool call and sends the catalogue's answer back; the quoted price passes the guard", async () => {
    const catalogue = lookupRepairPrice("port HDMI PS5", SEED_BRANDS);
    if (catalogue.kind !== "found") throw new Error("catalogue");
    const price = catalogue.model.repairs[0]!;
    const provider = fakeProvider(
      {
        toolCalls: [
          { id: "appel-1", name: "lookup_repair_price", arguments: JSON.stringify({ question: "port HDMI PS5" }) },
        ],
      },
      { pieces: [`Le port HDMI coûte ${price.price}.`] },
    );
    const { outcome } = await reply(provider);

    expect(outcome).toMatchObject({ kind: "answer", content: `Le port HDMI coûte ${price.price}.`, replaced: [] });
    const second = provider.requests[1]!.messages;
    expect(second.at(-2)).toMatchObject({
      role: "assistant",
      toolCalls: [{ id: "appel-1", name: "lookup_repair_price" }],
    });
    const tool = second.at(-1)!;
    expect(tool).toMatchObject({ role: "tool", toolCallId: "appel-1" });
    expect(JSON.parse(tool.content)).toMatchObject({
      kind: "found",
      model: { repairs: expect.arrayContaining([expect.objectContaining({ euros: price.euros })]) },
    });
  });

  it("stops offering tools after 3 rounds", async () => {
    const call = { id: "x", name: "shop_information", arguments: "{}" };
    const provider = fakeProvider(
      { toolCalls: [call] },
      { toolCalls: [call] },
      { toolCalls: [call] },
      { pieces: ["Voici nos horaires."] },
    );
    const { outcome } = await reply(provider);
    expect(outcome).toMatchObject({ kind: "answer", calls: 4 });
    expect(provider.requests.map((request) => request.tools.length)).toEqual([2, 2, 2, 0]);
  });

  it("replaces an amount no tool gave", async () => {
    const { outcome, pieces } = await reply(fakeProvider({ pieces: ["Comptez 1", "49 € environ."] }));
    expect(outcome.content).toBe(`Comptez ${ASSISTANT_MESSAGES.unsupportedPrice} environ.`);
    expect(pieces.join("")).not.toMatch(/149/);
    expect(outcome.replaced).toEqual([149]);
  });

  it("retries a retryable error after 1000 then 2000 ms, then gives the spec's message", async () => {
    const answered = await reply(fakeProvider({ error: retryable() }, { pieces: ["Voilà."] }));
    expect(answered.outcome).toMatchObject({ kind: "answer", content: "Voilà.", calls: 2 });
    expect(answered.waits).toEqual([1000]);

    const exhausted = await reply(fakeProvider({ error: retryable() }, { error: retryable() }, { error: retryable() }));
    expect(exhausted.outcome).toMatchObject({
      kind: "retries-exhausted",
      content: SHOP_MESSAGES.retriesExhausted,
      calls: 3,
    });
    expect(exhausted.waits).toEqual([1000, 2000]);
  });

  it("does not retry other errors, nor after text was shown", async () => {
    for (const error of [new ChatProviderError("refusé", { retryable: false }), new TypeError("bogue")]) {
      const { outcome, waits } = await reply(fakeProvider({ error }, { pieces: ["jamais lu"] }));
      expect(outcome).toMatchObject({ kind: "failed", content: SHOP_MESSAGES.failed, calls: 1, cause: error });
      expect(waits).toEqual([]);
    }

    const cut: ChatProvider = {
      logFields: {},
      async complete(request) {
        request.onText("Première étape : ");
        throw retryable();
      },
    };
    const { outcome, pieces } = await reply(cut);
    expect(outcome).toMatchObject({
      kind: "failed",
      content: `Première étape : \n\n${SHOP_MESSAGES.failed}`,
      calls: 1,
    });
    expect(pieces).toEqual(["Première étape : ", `\n\n${SHOP_MESSAGES.failed}`]);
  });

  it("answers an empty reply with the spec's message", async () => {
    const { outcome, pieces } = await reply(fakeProvider({ pieces: [] }));
    expect(outcome).toMatchObject({ kind: "empty", content: ASSISTANT_MESSAGES.emptyReply });
    expect(pieces).toEqual([ASSISTANT_MESSAGES.emptyReply]);
  });
});
