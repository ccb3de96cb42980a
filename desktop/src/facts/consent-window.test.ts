/**
 * Issue 38 §4, the consent in the window and in the command line: the first question's page shows « Envoyer les
 * informations de l'ordinateur au technicien », ticked by default with the line saying what is sent, and sends its
 * state with the answer (happy-dom running the page's own script, `atelierPoll` and `atelierSend` played by the
 * test); `--sans-informations` starts it unticked and is said in `--help`.
 */
import { Window } from "happy-dom";
import { afterEach, describe, expect, it } from "vitest";
import { helpText, parseCli } from "../cli.ts";
import { windowPage } from "../views/window-page.ts";
import { askingState, parseWindowEvent, type WindowState } from "../views/window-state.ts";
import { FACTS_CONSENT_TEXTS } from "./consent.ts";

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
  const settle = () => new Promise((resolve) => setTimeout(resolve, 250));
  const show = async (state: WindowState) => {
    next = state;
    await settle();
  };
  const byId = <T extends HTMLElement = HTMLElement>(id: string) => window.document.getElementById(id) as unknown as T;
  return { sent, show, byId, settle };
}

describe("the window's first question", () => {
  it("shows the box ticked with what is sent, and sends its state with the answer", async () => {
    const { sent, show, byId, settle } = await page();
    await show(askingState(null, 1, { send: true }));
    expect(byId("facts").hidden).toBe(false);
    expect(byId("factslabel").textContent).toBe(FACTS_CONSENT_TEXTS.label);
    expect(byId("factsdetail").textContent).toMatch(/jamais de numéro de série, de nom d'utilisateur ni d'adresse/);
    const box = byId<HTMLInputElement>("sendfacts");
    expect(box.checked).toBe(true);

    box.click();
    byId<HTMLInputElement>("answer").value = "Marie";
    byId("go").click();
    await settle();
    const start = sent.find((message) => message.type === "start");
    // Issue 40: typed in the first name's field.
    expect(start).toEqual({ type: "start", text: "Marie", field: "name", facts: false });
    expect(parseWindowEvent(JSON.stringify(start))).toEqual({
      type: "start",
      text: "Marie",
      field: "name",
      facts: false,
    });
  });

  it("starts unticked with --sans-informations, and hides the box when it is not asked", async () => {
    const { show, byId } = await page();
    await show(askingState(null, 1, { send: false }));
    expect(byId<HTMLInputElement>("sendfacts").checked).toBe(false);
    await show({ ...askingState(null, 2), status: "…" });
    expect(byId("facts").hidden).toBe(true);
  });
});

describe("--sans-informations", () => {
  it("is read from the command line and said in --help", () => {
    expect(parseCli(["--sans-informations"], "https://a.example")).toMatchObject({ kind: "run", noFacts: true });
    expect(parseCli([], "https://a.example")).not.toHaveProperty("noFacts");
    expect(helpText(undefined)).toContain("--sans-informations");
  });
});
