import { describe, expect, it } from "vitest";
import { STATE } from "../test/fake-server.ts";
import { WAYLAND_REASON } from "./input/x11.ts";
import { renderScreen, type ScreenModel, TerminalView, wrap } from "./ui.ts";

const BASE: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie Dupont",
  state: null,
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
};

describe("terminal view", () => {
  it("says who is connected and that the technician is awaited", () => {
    const text = renderScreen({ ...BASE, state: { ...STATE, technicianName: null, controlActive: false } });
    expect(text).toContain("Ordinateur : PC-SALON");
    expect(text).toContain("Session de : Marie Dupont");
    expect(text).toContain("Technicien : en attente du technicien");
    expect(text).toContain("Contrôle : autorisé, mais le technicien ne l'utilise pas en ce moment.");
    expect(text).toContain("Pour arrêter : Ctrl+C");
    expect(text).toContain("R : reprendre la main");
  });

  it("lists « V : autoriser » and « C : autoriser » only once a technician joined, as the window's buttons", () => {
    const waiting = { ...STATE, technicianName: null, consent: false, controlActive: false };
    const alone = renderScreen({ ...BASE, capture: { ok: true }, viewAllowed: false, state: waiting });
    expect(alone).not.toMatch(/^[VC] : /mu);
    const joined = renderScreen({
      ...BASE,
      capture: { ok: true },
      viewAllowed: false,
      state: { ...waiting, technicianName: "Julien" },
    });
    expect(joined).toContain("V : autoriser le technicien à voir l'écran.");
    expect(joined).toContain("C : autoriser le technicien à prendre le contrôle");
  });

  it("says when control is active, not allowed, or requested", () => {
    expect(renderScreen({ ...BASE, state: STATE })).toContain("AUTORISÉ et ACTIF");
    const refused = renderScreen({ ...BASE, state: { ...STATE, consent: false, controlActive: false } });
    expect(refused).toContain("Contrôle : non autorisé. Le technicien demande la main");
    expect(refused).not.toContain("R : reprendre");
    expect(refused).toContain("C : autoriser le technicien à prendre le contrôle");
    const withdrawn = renderScreen({ ...BASE, withdrawnHere: true, state: { ...STATE, controlActive: false } });
    expect(withdrawn).toContain("autorisation retirée");
  });

  it("explains why injection is impossible and shows reconnection", () => {
    const text = renderScreen({ ...BASE, phase: "reconnecting", injection: { ok: false, reason: WAYLAND_REASON } });
    expect(text).toContain("Connexion perdue : nouvelle tentative");
    expect(text).toContain("⚠ Prise de contrôle impossible");
    expect(text).toContain("Wayland : la prise de contrôle n'est pas possible");
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
  });

  it("redraws in place on a terminal and only on change otherwise", () => {
    const tty: string[] = [];
    const view = new TerminalView({ write: (t: string) => tty.push(t), isTTY: true });
    view.draw(BASE);
    view.draw(BASE);
    view.draw({ ...BASE, phase: "reconnecting" });
    expect(tty).toHaveLength(2);
    expect(tty[0]!.startsWith("\x1b[H\x1b[2J")).toBe(true);
    const piped: string[] = [];
    const log = new TerminalView({ write: (t: string) => piped.push(t) });
    log.draw(BASE);
    log.draw(BASE);
    expect(piped).toHaveLength(1);
    expect(piped[0]).not.toContain("\x1b");
  });

  it("wraps long reasons at spaces", () => {
    expect(wrap("un deux trois quatre", 9)).toEqual(["un deux", "trois", "quatre"]);
  });
});
