/**
 * A small OpenAI-compatible chat completions server on 127.0.0.1 (issue 7
 * tests and benchmark): `POST /v1/chat/completions` answers each request
 * with the next scripted reply — text (streamed as server-sent chunks when
 * the request asks for `stream: true`, else one JSON completion), a tool
 * call, or an HTTP error — and records every request body.
 */
import { createServer, type Server } from "node:http";
import { freePort } from "./postgres.ts";

export type ScriptedReply =
  | { text: string; /** Pieces the streamed text is cut into (default: words). */ pieces?: string[]; delayMs?: number }
  | { toolCall: { name: string; arguments: Record<string, unknown> } }
  | { status: number; message?: string };

export type FakeOpenAI = {
  /** Base URL to give the SDK, ending in /v1. */
  baseURL: string;
  /** Request bodies received, in order. */
  requests: Record<string, unknown>[];
  /** Authorization headers received. */
  authorizations: string[];
  /** Queues replies; when the queue is empty, `respond` (when set) then `fallback` answers. */
  script(...replies: ScriptedReply[]): void;
  /** Computes a reply from the request body (the messages so far): a model that reacts to its tools' answers. */
  respond?: (body: { messages: { role: string; content: string | null }[] }) => ScriptedReply;
  fallback: ScriptedReply;
  close(): Promise<void>;
};

const completionId = () => `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const port = await freePort();
  const queue: ScriptedReply[] = [];
  const fake: FakeOpenAI = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: [],
    authorizations: [],
    script: (...replies) => void queue.push(...replies),
    fallback: { text: "Bonjour, je suis là pour vous aider." },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res
          .writeHead(404, { "Content-Type": "application/json" })
          .end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      fake.requests.push(body);
      fake.authorizations.push(String(req.headers.authorization ?? ""));
      const reply =
        queue.shift() ??
        fake.respond?.(body as { messages: { role: string; content: string | null }[] }) ??
        fake.fallback;
      const model = String(body.model ?? "fake");
      const created = Math.floor(Date.now() / 1000);
      const id = completionId();

      if ("status" in reply) {
        res
          .writeHead(reply.status, { "Content-Type": "application/json" })
          .end(JSON.stringify({ error: { message: reply.message ?? `erreur ${reply.status}`, type: "fake_error" } }));
        return;
      }
      const toolCalls =
        "toolCall" in reply
          ? [
              {
                index: 0,
                id: `call_${id}`,
                type: "function",
                function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
              },
            ]
          : undefined;
      const text = "text" in reply ? reply.text : null;
      const finish = toolCalls ? "tool_calls" : "stop";

      if (!body.stream) {
        res.writeHead(200, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            created,
            model,
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: text,
                  ...(toolCalls ? { tool_calls: toolCalls.map(({ index: _index, ...call }) => call) } : {}),
                },
                finish_reason: finish,
              },
            ],
          }),
        );
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      const send = (delta: Record<string, unknown>, finishReason: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
        );
      send({ role: "assistant", content: "" });
      if (toolCalls) send({ tool_calls: toolCalls });
      if (text !== null && "text" in reply) {
        const pieces = reply.pieces ?? text.split(/(?<= )/);
        for (const piece of pieces) {
          if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
          send({ content: piece });
        }
      }
      send({}, finish);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return fake;
}
