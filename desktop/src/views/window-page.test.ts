/**
 * Issue 38 §1, the window's page in happy-dom (its script run as the webview runs it, `atelierPoll` and
 * `atelierSend` played by the test): the « Messages » area lists the technician's lines under their name and the
 * customer's as « Vous », « Votre message » + « Envoyer » sends a `chat` line and the field empties once
 * the state says the message was accepted, the field is disabled with a French explanation before a technician
 * joins, and the buttons stay outside the scrolling information.
 */
import { Window } from "happy-dom";
import { afterEach, describe, expect, it } from "vitest";
import { STATE } from "../../test/fake-server.ts";
import type { ScreenModel } from "../ui.ts";
import { CHAT_LABELS } from "./chat-texts.ts";
import { windowPage } from "./window-page.ts";
import { type WindowState, windowState } from "./window-state.ts";

const BASE: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: STATE,
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
  capture: { ok: true },
  chat: { lines: [], available: true, sending: false, error: null },
};
const LINE = {
  id: "l1",
  from: "technician" as const,
  name: "Julien",
  text: "Bonjour <b>Marie</b>",
  at: "2026-12-01T13:05:00Z",
};

let opened: Window | undefined;
afterEach(async () => {
  await opened?.happyDOM.close();
  opened = undefined;
});

/** The page with its script running; `show(state)` is what the next poll returns; `sent` what the page said. */
async function page() {
  const window = new Window({
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
  });
  opened = window;
  const sent: Record<string, unknown>[] = [];
  let next: WindowState | null = null;
  Object.assign(window, {
    atelierPoll: async () => {
      const state = next;
      next = null;
      return state;
    },
    atelierSend: async (message: Record<string, unknown>) => void sent.push(message),
  });
  window.document.write(windowPage());
  const document = window.document;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 250));
  const show = async (state: WindowState) => {
    next = state;
    await settle();
  };
  const byId = (id: string) => document.getElementById(id)!;
  return { document, sent, show, byId, settle };
}

describe("the window's « Messages » area", () => {
  it("lists the lines, sends with « Envoyer », empties the field once accepted, keeps the buttons apart", async () => {
    const { document, sent, show, byId } = await page();
    await show(windowState({ ...BASE, chat: { ...BASE.chat!, lines: [LINE] } }));
    expect(byId("chat").classList.contains("on")).toBe(true);
    expect(byId("chathead").textContent).toBe("Messages");
    expect(document.querySelector('label[for="message"]')!.textContent).toBe("Votre message");
    expect(byId("chatsend").textContent).toBe("Envoyer");
    const items = [...document.querySelectorAll("#messages li")];
    expect(items.map((item) => item.querySelector(".who")!.textContent)).toEqual([
      expect.stringMatching(/^Julien \(technicien\) · \d\d:\d\d$/),
    ]);
    // Text only: the server's text never becomes markup.
    expect(items[0]!.querySelector(".text")!.textContent).toBe("Bonjour <b>Marie</b>");
    expect(items[0]!.querySelector("b")).toBeNull();

    const field = byId("message") as unknown as HTMLInputElement;
    expect(field.disabled).toBe(false);
    expect(field.maxLength).toBe(1000);
    field.value = "Merci, je suis là.";
    (byId("chatsend") as unknown as HTMLButtonElement).click();
    expect(sent.filter((message) => message.type === "chat")).toEqual([
      { type: "chat", text: "Merci, je suis là.", seq: 1 },
    ]);
    // Refused (the server's rate): the field keeps its text, the reason is said.
    await show(windowState({ ...BASE, chat: { ...BASE.chat!, lines: [LINE], error: "Trop de messages." } }));
    expect(field.value).toBe("Merci, je suis là.");
    expect(byId("chaterror").textContent).toBe("Trop de messages.");
    // Stored: the line is shown as the customer's own and the field empties.
    const mine = { id: "l2", from: "customer" as const, name: null, text: "Merci, je suis là.", at: LINE.at };
    await show(windowState({ ...BASE, chat: { ...BASE.chat!, lines: [LINE, mine] } }, null, { accepted: 1 }));
    expect(field.value).toBe("");
    expect(byId("chaterror").textContent).toBe("");
    expect([...document.querySelectorAll("#messages .who")].map((who) => who.textContent!.split(" · ")[0])).toEqual([
      "Julien (technicien)",
      "Vous",
    ]);

    // The stop button is outside the scrolling parts: after the messages, not inside <main>.
    const stop = document.querySelector('#buttons [data-action="stop"]')!;
    expect(stop.textContent).toBe("Arrêter l'assistance");
    expect(stop.closest("main")).toBeNull();
    expect(byId("chat").compareDocumentPosition(stop) & 4).toBe(4);
  });

  it("disables the field with a French explanation until a technician joins; hidden before the session", async () => {
    const { show, byId } = await page();
    const waiting = { ...STATE, technicianName: null, consent: false, controlActive: false };
    await show(windowState({ ...BASE, state: waiting, chat: { ...BASE.chat!, available: false } }));
    expect(byId("chathint").textContent).toBe(CHAT_LABELS.unavailable);
    expect((byId("message") as unknown as HTMLInputElement).disabled).toBe(true);
    expect((byId("chatsend") as unknown as HTMLButtonElement).disabled).toBe(true);
    await show(windowState({ ...BASE, state: null, chat: null }));
    expect(byId("chat").classList.contains("on")).toBe(false);
  });

  it("marks the title while a technician's message is unread", () => {
    expect(windowState(BASE, null, { unread: 1 }).title).toBe(
      "(1) Nouveau message — ● Assistance à distance de l'Atelier",
    );
    expect(windowState(BASE, null, { unread: 2 }).title).toMatch(/^\(2\) Nouveaux messages — /u);
    expect(windowState(BASE).title).not.toMatch(/message/u);
  });
});
