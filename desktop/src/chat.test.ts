/**
 * Issue 38 §1, the chat module against the fake server over a real Socket.IO link: what the app keeps of the
 * technician's lines (checked, bounded, no duplicates), sends checked before they leave (French zod messages),
 * acknowledgements (the stored line as the customer's own, a refusal, no answer in time), and nothing before a
 * technician joins.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHAT_MESSAGES, type ChatLine } from "#app/remote-support/chat-protocol.ts";
import type { DeviceState } from "#app/remote-support/device-protocol.ts";
import { type FakeServer, STATE, startFakeServer, TOKEN } from "../test/fake-server.ts";
import { CHAT_HISTORY, chatDisplayText, SessionChat } from "./chat.ts";
import { defaultSocketFactory, type DeviceSocket } from "./connection.ts";

let server: FakeServer;
let socket: DeviceSocket;
beforeEach(async () => {
  server = await startFakeServer();
  socket = defaultSocketFactory(server.url)(TOKEN);
  await server.waitFor(() => socket.connected && server.socket());
});
afterEach(async () => {
  socket.close();
  await server.close();
});

const line = (id: string, text = "Bonjour"): ChatLine => ({
  id,
  from: "technician",
  name: "Julien",
  text,
  at: "2026-12-01T13:05:00.000Z",
});

function chat(state: DeviceState | null = STATE, timeoutMs?: number) {
  const link = { socket, state, phase: "connected" };
  const incoming: ChatLine[] = [];
  let changes = 0;
  const conversation = new SessionChat(
    link,
    { onChange: () => changes++, onIncoming: (received) => incoming.push(received) },
    timeoutMs,
  );
  conversation.start();
  return { conversation, incoming, link, changes: () => changes };
}

describe("the session chat", () => {
  it("keeps the technician's valid lines only, once each, the last 50", async () => {
    const { conversation, incoming } = chat();
    const push = server.socket()!;
    push.emit("device:chat", line("a"));
    push.emit("device:chat", line("a"));
    push.emit("device:chat", { ...line("b"), text: "\u001b[2J effacé" });
    push.emit("device:chat", { ...line("c"), from: "customer" });
    push.emit("device:chat", { id: "d" } as unknown as ChatLine);
    push.emit("device:chat", line("e", "Deuxième"));
    await server.waitFor(() => incoming.length === 2);
    expect(conversation.model.lines.map(({ id }) => id)).toEqual(["a", "e"]);
    for (let index = 0; index < CHAT_HISTORY + 5; index++) push.emit("device:chat", line(`n${index}`));
    await server.waitFor(() => conversation.model.lines.at(-1)?.id === `n${CHAT_HISTORY + 4}`);
    expect(conversation.model.lines).toHaveLength(CHAT_HISTORY);
    expect(conversation.model.lines[0]!.id).toBe("n5");
  });

  it("sends the trimmed text and keeps the stored line as the customer's", async () => {
    const { conversation } = chat();
    expect(await conversation.send("  Merci beaucoup  ")).toEqual({ ok: true });
    expect(server.chats).toEqual([{ text: "Merci beaucoup" }]);
    expect(conversation.model.lines).toEqual([
      expect.objectContaining({ id: "chat-1", from: "customer", text: "Merci beaucoup" }),
    ]);
    expect(conversation.model).toMatchObject({ error: null, sending: false, available: true });
  });

  it("refuses in French what the protocol refuses, without sending it", async () => {
    const { conversation } = chat();
    expect(await conversation.send("   ")).toEqual({ ok: false, message: "Le message est vide." });
    expect(await conversation.send("x".repeat(1001))).toEqual({
      ok: false,
      message: "Le message dépasse 1000 caractères.",
    });
    expect((await conversation.send("a\u0000b")).ok).toBe(false);
    expect(conversation.model.error).toMatch(/caractères invisibles ou invalides/u);
    expect(server.chats).toEqual([]);
  });

  it("says the server's refusal, and a failure when no answer comes in time", async () => {
    const { conversation } = chat(STATE, 300);
    server.chatAnswer = () => ({ ok: false, message: "Trop de messages : patientez un instant." });
    expect(await conversation.send("Un")).toEqual({ ok: false, message: "Trop de messages : patientez un instant." });
    expect(conversation.model.error).toBe("Trop de messages : patientez un instant.");
    server.chatAnswer = () => null;
    expect(await conversation.send("Deux")).toEqual({ ok: false, message: CHAT_MESSAGES.failed });
    expect(conversation.model.lines).toEqual([]);
    expect(server.chats).toHaveLength(2);
  });

  it("is unavailable until a technician joins", async () => {
    const { conversation, link } = chat({ ...STATE, technicianName: null });
    expect(conversation.model.available).toBe(false);
    expect(await conversation.send("Allô ?")).toEqual({ ok: false, message: CHAT_MESSAGES.notConnected });
    expect(server.chats).toEqual([]);
    link.state = STATE;
    expect(conversation.model.available).toBe(true);
  });

  it("makes a line safe to print: no C1 control nor direction override", () => {
    expect(chatDisplayText("a\u009b31mb\u202Ec\td\r\ne")).toBe("a31mbc d \ne");
  });
});
