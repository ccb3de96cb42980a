/**
 * Issue 27: what the window shows for each moment of a session (pure
 * `windowState`), that it says what the terminal says (`texts.ts`), and
 * the window process's lines as the main process reads them.
 */
import { describe, expect, it } from "vitest";
import { STATE } from "../../test/fake-server.ts";
import { renderScreen, type ScreenModel } from "../ui.ts";
import { CONSENT_LATER_TEXT, ELEVATION_TEXTS, signText, START_TEXTS } from "./texts.ts";
import { askingState, parseWindowEvent, windowState } from "./window-state.ts";
import { zenityStatus } from "./zenity.ts";

const BASE: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: null,
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
  sessionCode: "ACDEFG",
  viewAllowed: false,
  streaming: false,
  capture: { ok: true },
};
const WAITING = { ...STATE, technicianName: null, consent: false, controlActive: false, controlRequested: false };
const labels = (model: ScreenModel) => windowState(model).buttons.map((button) => button.label);

describe("the window's state", () => {
  it("shows the code in large letters until a technician joins; the « Autoriser… » buttons only once one is there", () => {
    const waiting = windowState({ ...BASE, state: WAITING });
    expect(waiting).toMatchObject({ code: "ACD EFG", codeHint: "Donnez ce code au technicien :", sign: null });
    expect(waiting.lines).toContain("En attente du technicien…");
    // Issue 40: nothing to allow yet: no « Autoriser… » button to press, a sentence says when it will be asked.
    expect(waiting.buttons).toEqual([{ action: "stop", label: "Arrêter l'assistance", kind: "danger" }]);
    expect(waiting.lines).toContain(CONSENT_LATER_TEXT);
    expect(waiting.lines.join(" ")).not.toMatch(/Autoriser|Contrôle :/u);
    const joined = windowState({ ...BASE, state: { ...WAITING, technicianName: "Jean", controlRequested: true } });
    expect(joined.code).toBeNull();
    // Issue 40: the technician named, and the consents are now the primary actions.
    expect(joined.lines).toContain("Jean, technicien de l'atelier, est connecté.");
    expect(joined.lines).not.toContain(CONSENT_LATER_TEXT);
    expect(joined.buttons).toEqual([
      { action: "view", label: "Autoriser à voir l'écran", kind: "primary" },
      { action: "control", label: "Autoriser le contrôle", kind: "primary" },
      { action: "stop", label: "Arrêter l'assistance", kind: "danger" },
    ]);
    expect(joined.lines).toContain(
      "Contrôle : non autorisé. Le technicien demande la main : cliquez sur « Autoriser le contrôle » pour l'autoriser si vous le souhaitez.",
    );
    // Allowed already (on the session's page) and the technician gone: « Reprendre la main » stays offered.
    expect(labels({ ...BASE, state: { ...WAITING, consent: true } })).toEqual([
      "Reprendre la main",
      "Arrêter l'assistance",
    ]);
  });

  it("asks the first name, the pairing code behind a link of its own (issue 40)", () => {
    const ask = askingState(null, 1).ask!;
    expect(ask).toMatchObject({ label: "Votre prénom", button: "Démarrer", field: "name" });
    expect(ask.label).not.toMatch(/code/u);
    expect(ask.pairing).toEqual({
      explain: START_TEXTS.codeExplain,
      label: "Code d'appairage",
      link: "J'ai un code d'appairage",
      back: START_TEXTS.nameLink,
    });
    expect(askingState("Ce code d'appairage n'est pas valide.", 2, undefined, "code").ask!.field).toBe("code");
  });

  it("keeps a sign while the technician sees or controls, and marks the title", () => {
    const seeing: ScreenModel = {
      ...BASE,
      state: { ...WAITING, technicianName: "Jean" },
      viewAllowed: true,
      streaming: true,
    };
    expect(windowState(seeing)).toMatchObject({
      sign: "Jean, technicien, voit votre écran.",
      title: expect.stringMatching(/^● /),
    });
    const controlling: ScreenModel = { ...BASE, state: { ...STATE, technicianName: "Jean" } };
    expect(windowState(controlling).sign).toBe("Jean, technicien, contrôle votre souris et votre clavier.");
    expect(labels(controlling)).toEqual(["Autoriser à voir l'écran", "Reprendre la main", "Arrêter l'assistance"]);
    expect(signText({ ...controlling, viewAllowed: true, streaming: true })).toBe(
      "Jean, technicien, voit votre écran et contrôle votre souris et votre clavier.",
    );
    // Taken back here: no sign, the offer comes back.
    expect(windowState({ ...controlling, withdrawnHere: true }).sign).toBeNull();
    expect(labels({ ...controlling, withdrawnHere: true, viewAllowed: true })).toEqual([
      "Ne plus montrer l'écran",
      "Autoriser le contrôle",
      "Arrêter l'assistance",
    ]);
    expect(labels({ ...controlling, clipboardSendable: true })).toContain("Envoyer le presse-papiers au technicien");
  });

  it("names the technician by the first name in the window, the dialogs and the terminal (issue 40)", () => {
    // An older server sends the full name: only its first word is shown.
    const joined: ScreenModel = {
      ...BASE,
      sessionCode: "K7W9GA",
      state: { ...WAITING, technicianName: "Julien Martin" },
    };
    const sentence = "Julien, technicien de l'atelier, est connecté.";
    expect(windowState(joined).lines).toContain(sentence);
    expect(zenityStatus(joined)).toContain(sentence);
    expect(renderScreen(joined)).toContain(sentence);
    for (const text of [windowState(joined).lines.join(" "), zenityStatus(joined), renderScreen(joined)])
      expect(text).not.toContain("Martin");
    // Before: the code, written as the pages write it, in all three.
    const waiting: ScreenModel = { ...joined, state: WAITING };
    expect(windowState(waiting).code).toBe("K7W 9GA");
    expect(zenityStatus(waiting)).toContain(">K7W 9GA<");
    expect(renderScreen(waiting)).toContain("Code de session : K7W 9GA");
  });

  it("says the same sentences as the terminal", () => {
    const model: ScreenModel = {
      ...BASE,
      state: { ...STATE, technicianName: "Jean" },
      viewAllowed: true,
      streaming: true,
    };
    const terminal = renderScreen(model).replace(/\s+/g, " ");
    for (const line of windowState(model).lines.filter((line) => !line.startsWith("Contrôle"))) {
      expect(terminal).toContain(line);
    }
    expect(terminal).toContain(windowState(model).status);
  });

  it("shows the place in the waiting queue until a technician joins, as the terminal does", () => {
    const waiting: ScreenModel = { ...BASE, state: WAITING, waiting: { place: 2, total: 3, estimatedMinutes: 10 } };
    const lines = windowState(waiting).lines;
    expect(lines.join(" ")).toMatch(
      /Votre place dans la file d'attente : 2 \(1 personne avant vous\)|heures d'ouverture|ferm/i,
    );
    for (const line of lines.slice(0, -4)) expect(renderScreen(waiting).replace(/\s+/g, " ")).toContain(line);
    expect(windowState({ ...waiting, state: { ...WAITING, technicianName: "Jean" } }).lines.join(" ")).not.toMatch(
      /file d'attente/,
    );
  });

  it("ends with the last words and « Fermer » only; the question keeps the last mistake", () => {
    const final = windowState({ ...BASE, state: STATE, phase: "stopped" }, "Arrêt demandé.");
    expect(final).toMatchObject({ final: true, sign: null, code: null, lines: ["Arrêt demandé."] });
    expect(final.buttons).toEqual([{ action: "close", label: "Fermer", kind: "normal" }]);
    expect(askingState("Ce code d'appairage n'est pas valide.", 2).ask).toMatchObject({
      button: "Démarrer",
      error: "Ce code d'appairage n'est pas valide.",
      attempt: 2,
    });
  });
});

describe("the window process's lines", () => {
  it("reads events and ignores anything else", () => {
    expect(parseWindowEvent('{"type":"start","text":"Marie"}')).toEqual({ type: "start", text: "Marie" });
    expect(parseWindowEvent('{"type":"start","text":"acde-3479","field":"code"}')).toEqual({
      type: "start",
      text: "acde-3479",
      field: "code",
    });
    expect(parseWindowEvent('{"type":"start","text":"x","field":"rm"}')).toEqual({ type: "start", text: "x" });
    expect(parseWindowEvent('{"type":"action","action":"control"}')).toEqual({ type: "action", action: "control" });
    expect(parseWindowEvent('{"type":"action","action":"rm -rf"}')).toBeNull();
    expect(parseWindowEvent('{"type":"drawn","code":"ACD EFG"}')).toEqual({
      type: "drawn",
      code: "ACD EFG",
      sign: null,
      asking: false,
      buttons: [],
    });
    expect(parseWindowEvent("(process:2): Gtk-WARNING **: …")).toBeNull();
    expect(parseWindowEvent("42")).toBeNull();
  });
});

describe("issue 36 §4 in the window", () => {
  const JOINED = { ...STATE, consent: false, controlActive: false };
  it("offers « Relancer en administrateur » with its sentence while the technician asks, as the terminal offers A", () => {
    const asked: ScreenModel = { ...BASE, state: JOINED, elevation: "asked" };
    const state = windowState(asked);
    expect(state.buttons).toContainEqual({ action: "elevate", label: "Relancer en administrateur", kind: "primary" });
    expect(state.lines).toContain(ELEVATION_TEXTS.asked);
    expect(state.lines).toContain(ELEVATION_TEXTS.buttons);
    expect(renderScreen(asked)).toContain("A : relancer le logiciel en administrateur");
    expect(parseWindowEvent('{"type":"action","action":"elevate"}')).toEqual({ type: "action", action: "elevate" });

    const relaunching = windowState({ ...asked, elevation: "relaunching" });
    expect(relaunching.buttons.map((button) => button.action)).not.toContain("elevate");
    expect(relaunching.lines).toContain(ELEVATION_TEXTS.relaunching);
    expect(labels({ ...BASE, state: JOINED })).not.toContain("Relancer en administrateur");
  });
});
