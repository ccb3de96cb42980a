/**
 * Issue 38 §3, « Reboot and reconnect », in each interface of the app: the technician's request is said, and
 * answered, the same way everywhere — the window's two buttons (and its page's events for them), the terminal's
 * O / N keys (a piped « non » declines), zenity's question (with a fake `zenity` recording its arguments: « Redémarrer
 * l'ordinateur » accepts, « Refuser le redémarrage » declines); once under way, every interface says the computer
 * restarts and how the app comes back.
 */
import { fakeZenity } from "../../test/fake-zenity.ts";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { STATE } from "../../test/fake-server.ts";
import { renderScreen, type ScreenModel } from "../ui.ts";
import { listenKeys } from "../views/terminal.ts";
import type { ViewActions } from "../views/view.ts";
import { parseWindowEvent, windowState } from "../views/window-state.ts";
import { ZENITY_TITLES, ZenityAppView } from "../views/zenity.ts";
import { REBOOT_TEXTS } from "./reboot-texts.ts";

const MODEL: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: { ...STATE, consent: false, controlActive: false, controlRequested: false },
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
  reboot: "asked",
};

/** Actions recording the reboot's answers. */
function answers() {
  const given: string[] = [];
  const actions: ViewActions = {
    view: () => {},
    allowControl: () => {},
    withdraw: () => {},
    stop: () => {},
    acceptReboot: () => given.push("accept"),
    declineReboot: () => given.push("decline"),
  };
  return { actions, given };
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the restart asked, in every interface", () => {
  it("the window: the sentence and two buttons, whose events the app accepts", () => {
    const state = windowState(MODEL);
    expect(state.lines).toContain(REBOOT_TEXTS.asked);
    expect(state.lines).toContain(REBOOT_TEXTS.buttons);
    expect(state.buttons.map((button) => button.label)).toEqual(
      expect.arrayContaining(["Redémarrer l'ordinateur", "Refuser le redémarrage"]),
    );
    expect(parseWindowEvent('{"type":"action","action":"acceptReboot"}')).toEqual({
      type: "action",
      action: "acceptReboot",
    });
    expect(parseWindowEvent('{"type":"action","action":"declineReboot"}')).not.toBeNull();
    const restarting = windowState({ ...MODEL, reboot: "restarting" });
    expect(restarting.lines).toContain(REBOOT_TEXTS.restarting);
    expect(restarting.buttons.map((button) => button.label)).not.toContain("Redémarrer l'ordinateur");
  });

  it("the terminal: O accepts, N declines, a piped « non » declines", () => {
    const screen = renderScreen({ ...MODEL, columns: 200 }).replace(/\s+/g, " ");
    expect(screen).toContain(REBOOT_TEXTS.asked);
    expect(screen).toContain("O : accepter le redémarrage de l'ordinateur.");
    expect(screen).toContain("N : refuser le redémarrage de l'ordinateur.");
    const { actions, given } = answers();
    const stdin = new PassThrough();
    const stop = listenKeys(stdin, actions);
    stdin.write("o");
    stdin.write("N");
    stdin.write("non\n");
    stdin.write("oui\n");
    stop();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(given).toEqual(["accept", "decline", "decline", "accept"]);
        resolve();
      }),
    );
  });

  it("zenity: a question whose buttons accept or decline", async () => {
    // The restart's question answers with the exit code in `code`; other dialogs stay open.
    const zenity = fakeZenity(
      "zenity-reboot",
      (folder) => `  *"${ZENITY_TITLES.reboot}"*) exit "$(cat "${folder}/code")" ;;`,
    );
    const { folder, file } = zenity;
    folders.push(folder);
    writeFileSync(path.join(folder, "code"), "0");
    const view = new ZenityAppView(file, process.env, { onClose: () => {} }, { write: () => true });
    const { actions, given } = answers();
    view.listen(actions);
    view.draw(MODEL);
    const questions = () => zenity.calls().filter((call) => call.some((arg) => arg.includes(ZENITY_TITLES.reboot)));
    await expect.poll(() => given).toEqual(["accept"]);
    expect(questions()[0]).toEqual(
      expect.arrayContaining([
        "--question",
        `--ok-label=${REBOOT_TEXTS.accept}`,
        `--cancel-label=${REBOOT_TEXTS.decline}`,
      ]),
    );
    expect(questions()[0]!.find((arg) => arg.startsWith("--text="))).toContain("Enregistrez d'abord votre travail");

    // Asked again later and declined this time.
    writeFileSync(path.join(folder, "code"), "1");
    view.draw({ ...MODEL, reboot: null });
    view.draw(MODEL);
    await expect.poll(() => given).toEqual(["accept", "decline"]);
    await view.close(false);
  });
});
