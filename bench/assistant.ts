/**
 * The assistant (issue 7 benchmarks), against production server processes
 * (fresh PGlite DATA_DIR each):
 *
 * 1. Time to first token, `runs` times (default 50) each, alternating:
 *    - direct: the `openai` SDK streaming from the fake OpenAI-compatible
 *      server (127.0.0.1, first piece sent at once), request → first text;
 *    - through us: `POST /api/assistant/messages` to a server whose provider
 *      is that fake, request → first `delta` event.
 *    Our overhead = the difference of the medians (target ≤ 20 ms): the
 *    sign-in check, the per-account limit, storing the message, reading the
 *    history, the price check.
 * 2. Offline assistant answer time (target ≤ 10 ms median): `offlineAnswer()`
 *    in this process over 8 kinds of question × 100, and a server without
 *    provider from request to the `done` event.
 *
 *   node bench/assistant.ts [runs=50]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createParser } from "eventsource-parser";
import OpenAI from "openai";
import { offlineAnswer } from "#server/assistant/offline.ts";
import { startFakeOpenAI } from "#tests/support/fake-openai.ts";
import { signIn } from "#tests/support/remote-support.ts";
import { PASSWORD, SECRET, percentile, seedAccounts, summary } from "./soft-assist-lib.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";
import { brands as SEED_BRANDS } from "#app/catalogue/index.ts";

const runs = Number(process.argv[2] ?? 50);
const REPLY = "Bonjour, redémarrez votre ordinateur puis vérifiez les mises à jour de Windows.";

/** POSTs `content`; resolves with ms to the first `delta` and to `done`. */
async function ask(url: string, cookie: string, content: string): Promise<{ first: number; done: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/assistant/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: url },
    body: JSON.stringify({ content }),
  });
  if (!response.ok || !response.body) throw new Error(`${response.status} ${await response.text()}`);
  let first = 0;
  let done = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === "delta" && !first) first = performance.now() - started;
      if (event.event === "done") done = performance.now() - started;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  return { first, done };
}

async function serverWith(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-assistant-"));
  const account = { email: "client@banc.fr", name: "Client Banc", technician: false };
  await seedAccounts({ dataDir }, [account]);
  const port = await freePort();
  const server = await startServer(port, {
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: SECRET,
    AI_RATE_LIMIT: "100000",
    LOG_LEVEL: "warn",
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  const cookie = await signIn(url, account.email, PASSWORD);
  return {
    url,
    cookie,
    async close() {
      await stop(server);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

ensureBuild();
const fake = await startFakeOpenAI();
fake.fallback = { text: REPLY };
const online = await serverWith({ OPENAI_API_KEY: "sk-banc", OPENAI_BASE_URL: fake.baseURL, AI_MODEL: "modele-banc" });
const client = new OpenAI({ apiKey: "sk-banc", baseURL: fake.baseURL, maxRetries: 0 });
try {
  const direct: number[] = [];
  const through: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const started = performance.now();
    const stream = await client.chat.completions.create({
      model: "modele-banc",
      messages: [{ role: "user", content: "Bonjour" }],
      stream: true,
    });
    let first = 0;
    for await (const chunk of stream)
      if (!first && chunk.choices[0]?.delta?.content) first = performance.now() - started;
    const ours = await ask(online.url, online.cookie, `Mon ordinateur est lent (${i}).`);
    // The first rounds warm up both paths.
    if (i >= 5) {
      direct.push(first);
      through.push(ours.first);
    }
  }
  console.log(`1. time to first token, ${runs} requests each`);
  console.log(`   direct to the provider: ${summary(direct)}`);
  console.log(`   through /api/assistant: ${summary(through)}`);
  console.log(
    `   our overhead (median difference): ${(percentile(through, 50) - percentile(direct, 50)).toFixed(1)} ms   (target ≤ 20 ms)`,
  );
} finally {
  await online.close();
  await fake.close();
}

const questions = [
  "Combien coûte le port HDMI d'une PS5 ?",
  "écran Switch OLED",
  "Prix de la batterie d'un iPhone 13 ?",
  "Quels sont vos horaires ?",
  "Quelle est votre adresse ?",
  "Comment démarrer une session à distance ?",
  "Combien pour l'écran d'un Nokia 3310 ?",
  "Mon imprimante n'imprime plus en couleur.",
];
const inProcess: number[] = [];
for (let round = 0; round < 101; round++) {
  for (const question of questions) {
    const started = performance.now();
    offlineAnswer(question, SEED_BRANDS);
    if (round > 0) inProcess.push(performance.now() - started);
  }
}
console.log(`2. offline assistant`);
console.log(
  `   offlineAnswer(), ${questions.length} kinds of question × 100: ${summary(inProcess)}   (target ≤ 10 ms median)`,
);
const offline = await serverWith({});
try {
  const viaHttp: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const { done } = await ask(offline.url, offline.cookie, questions[i % questions.length]!);
    if (i >= 5) viaHttp.push(done);
  }
  console.log(`   through /api/assistant, request → done: ${summary(viaHttp)}`);
} finally {
  await offline.close();
}
