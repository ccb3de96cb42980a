/**
 * Issue 38 §1, the window's page in happy-dom (its script run as the webview runs it, `atelierPoll` and
 * `atelierSend` played by the test): the « Messages » area lists the technician's lines under their name and the
 * customer's as « Vous », « Votre message » + « Envoyer » sends a `chat` line and the field empties once
 * the state says the message was accepted, the field is disabled with a French explanation before a technician
 * joins, and the buttons stay outside the scrolling information.
 * Issue 40: the information, the messages and the files scroll in one area while the buttons' bar, « Arrêter
 * l'assistance » included, stays out of it; the first question asks « Votre prénom », and « J'ai un code
 * d'appairage » swaps in the pairing code's field, whose answer the page sends as `field: "code"`.
 */
import { Window } from "happy-dom";
import { afterEach, describe, expect, it } from "vitest";
import { STATE } from "../../test/fake-server.ts";
import type { ScreenModel } from "../ui.ts";
import { CHAT_LABELS } from "./chat-texts.ts";
import { windowPage } from "./window-page.ts";
import { askingState, type WindowState, windowState } from "./window-state.ts";

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

  it("keeps « Arrêter l'assistance » in the bar outside the one scrolling area (issue 40)", async () => {
    const { document, show, byId } = await page();
    await show(
      windowState({ ...BASE, elevation: "asked", clipboardSendable: true, chat: { ...BASE.chat!, lines: [LINE] } }),
    );
    const scroll = byId("scroll");
    const bar = byId("buttons");
    // The information, the messages and the files scroll together; the bar is the body's last child, after them.
    for (const id of ["heading", "lines", "chat", "files"]) expect(scroll.contains(byId(id))).toBe(true);
    expect(scroll.contains(bar)).toBe(false);
    expect(bar.parentElement).toBe(document.body);
    expect(scroll.compareDocumentPosition(bar) & 4).toBe(4);
    const stop = bar.querySelector('[data-action="stop"]')!;
    expect(stop.textContent).toBe("Arrêter l'assistance");
    expect([...bar.querySelectorAll("button")].at(-1)).toBe(stop);
    // The rules that make it so: the area scrolls and shrinks, the bar never does; the stop button spans the bar.
    const style = document.querySelector("style")!.textContent!;
    expect(style).toMatch(/#scroll \{ flex: 1 1 auto; min-height: 0; overflow-y: auto; \}/u);
    expect(style).toMatch(/#buttons \{ flex: none;/u);
    expect(style).toMatch(/#buttons \[data-action="stop"\][^{]*\{ grid-column: 1 \/ -1; \}/u);
    expect(style).not.toMatch(/main \{[^}]*flex-shrink/u);
  });

  it("shows no « Autoriser… » button before a technician joins, primary ones once one is there (issue 40)", async () => {
    const { document, show, byId } = await page();
    const waiting = { ...STATE, technicianName: null, consent: false, controlActive: false, controlRequested: false };
    await show(
      windowState({ ...BASE, state: waiting, sessionCode: "K7W9GA", chat: { ...BASE.chat!, available: false } }),
    );
    expect(byId("code").textContent).toBe("K7W 9GA");
    const labels = () => [...document.querySelectorAll("#buttons button")].map((button) => button.textContent);
    expect(labels()).toEqual(["Arrêter l'assistance"]);
    expect(byId("lines").textContent).toContain(
      "Les autorisations vous seront demandées quand un technicien sera connecté.",
    );
    await show(windowState({ ...BASE, state: { ...waiting, technicianName: "Julien", controlRequested: true } }));
    expect(byId("lines").textContent).toContain("Julien, technicien de l'atelier, est connecté.");
    expect([...document.querySelectorAll("#buttons button.primary")].map((button) => button.textContent)).toEqual([
      "Autoriser à voir l'écran",
      "Autoriser le contrôle",
    ]);
  });

  it("asks « Votre prénom »; « J'ai un code d'appairage » shows the code's field and sends it as such (issue 40)", async () => {
    const { document, sent, show, byId } = await page();
    await show(askingState(null, 1));
    expect(document.querySelector('label[for="answer"]')!.textContent).toBe("Votre prénom");
    expect(byId("explain").textContent).toMatch(/^Tapez votre prénom/u);
    expect(byId("go").textContent).toBe("Démarrer");
    const link = byId("switch") as unknown as HTMLButtonElement;
    expect(link.textContent).toBe("J'ai un code d'appairage");
    expect(link.className).toBe("link");
    expect((byId("codefield") as unknown as HTMLElement).hidden).toBe(true);

    link.click();
    expect((byId("namefield") as unknown as HTMLElement).hidden).toBe(true);
    expect((byId("codefield") as unknown as HTMLElement).hidden).toBe(false);
    expect(document.querySelector('label[for="pairing"]')!.textContent).toBe("Code d'appairage");
    expect(byId("explain").textContent).toContain("ACDE-3479");
    expect(link.textContent).toBe("Je n'ai pas de code : démarrer avec mon prénom");
    (byId("pairing") as unknown as HTMLInputElement).value = "acde-3479";
    (byId("go") as unknown as HTMLButtonElement).click();
    expect(sent.filter((message) => message.type === "start")).toEqual([
      { type: "start", text: "acde-3479", field: "code" },
    ]);

    // Refused: the question comes back on the code's field; back to the first name, it sends the name's field.
    await show({ ...windowState({ ...BASE, state: null, chat: null }), ask: null });
    await show(askingState("Ce code d'appairage n'est pas valide.", 2, undefined, "code"));
    expect((byId("codefield") as unknown as HTMLElement).hidden).toBe(false);
    expect(byId("error").textContent).toBe("Ce code d'appairage n'est pas valide.");
    link.click();
    (byId("answer") as unknown as HTMLInputElement).value = "Marie";
    (byId("go") as unknown as HTMLButtonElement).click();
    expect(sent.filter((message) => message.type === "start").at(-1)).toEqual({
      type: "start",
      text: "Marie",
      field: "name",
    });
  });

  it("marks the title while a technician's message is unread", () => {
    expect(windowState(BASE, null, { unread: 1 }).title).toBe(
      "(1) Nouveau message — ● Assistance à distance de l'Atelier",
    );
    expect(windowState(BASE, null, { unread: 2 }).title).toMatch(/^\(2\) Nouveaux messages — /u);
    expect(windowState(BASE).title).not.toMatch(/message/u);
  });
});
