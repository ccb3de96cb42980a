/**
 * Issue 38 §1, the chat in zenity's interface, with a fake `zenity` (a shell script recording its arguments):
 * a technician's message opens an entry dialog of its own, beside the status dialog, showing the message; its
 * answer is sent; a refused answer reopens it with the reason and the text typed; « Fermer » sends nothing.
 */
import { fakeZenity } from "../../test/fake-zenity.ts";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import { STATE } from "../../test/fake-server.ts";
import type { ScreenModel } from "../ui.ts";
import { ZENITY_TITLES, ZenityAppView } from "./zenity.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A fake zenity in a temporary folder: each run appends its arguments (NUL-separated, then a `\u0001` line) to
 * `calls`; the chat's entry prints the content of `answer` and succeeds when that file exists, else fails
 * (« Fermer »); every other dialog stays open until killed.
 */
function chatZenity() {
  const zenity = fakeZenity(
    "zenity-chat",
    (folder) => `  *"${ZENITY_TITLES.chat}"*) [ -f "${folder}/answer" ] || exit 1; cat "${folder}/answer"; exit 0 ;;`,
  );
  folders.push(zenity.folder);
  return {
    file: zenity.file,
    calls: zenity.calls,
    answer: (text: string | null) =>
      text === null
        ? rmSync(path.join(zenity.folder, "answer"), { force: true })
        : writeFileSync(path.join(zenity.folder, "answer"), `${text}\n`),
  };
}

async function until<T>(read: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("délai dépassé");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const LINE: ChatLine = {
  id: "t1",
  from: "technician",
  name: "Julien",
  text: "Redémarrez l'imprimante <svp>.",
  at: "2026-12-01T13:05:00Z",
};
const MODEL: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: { ...STATE, consent: false, controlActive: false, controlRequested: false },
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: false,
  chat: { lines: [LINE], available: true, sending: false, error: null },
};

describe("the chat in zenity's dialogs", () => {
  it("shows the message in a dialog of its own, sends the answer, reopens a refused one", async () => {
    const zenity = chatZenity();
    const view = new ZenityAppView(zenity.file, process.env, { onClose: () => {} }, { write: () => true });
    const sent: string[] = [];
    let accept = false;
    view.listen({
      view: () => {},
      allowControl: () => {},
      withdraw: () => {},
      stop: () => {},
      sendChat: async (text) => {
        sent.push(text);
        const ok = accept;
        accept = true;
        if (!ok) view.draw({ ...MODEL, chat: { ...MODEL.chat!, error: "Trop de messages : patientez un instant." } });
        return ok;
      },
    });
    view.draw(MODEL);
    zenity.answer("Voilà, c'est fait");
    view.chatReceived(LINE);
    await until(() => sent.length === 2);
    const dialogs = zenity.calls().filter((args) => args.includes(`--title=${ZENITY_TITLES.chat}`));
    expect(dialogs).toHaveLength(2);
    expect(dialogs[0]).toContain("--entry");
    expect(dialogs[0]).toContain("--ok-label=Envoyer");
    expect(dialogs[0]).toContain("--cancel-label=Fermer");
    const text = dialogs[0]!.find((arg) => arg.startsWith("--text="))!;
    expect(text).toMatch(/^--text=Julien \(technicien\), \d\d:\d\d :\nRedémarrez l'imprimante &lt;svp&gt;\./u);
    expect(text).toContain("Votre message (facultatif) :");
    // Refused: the reason and the text typed, to send again.
    expect(dialogs[1]!.find((arg) => arg.startsWith("--text="))).toContain(
      "⚠ Trop de messages : patientez un instant.",
    );
    expect(dialogs[1]).toContain("--entry-text=Voilà, c'est fait");
    expect(sent).toEqual(["Voilà, c'est fait", "Voilà, c'est fait"]);
    // The status dialog is up beside it: the chat blocks nothing.
    expect(zenity.calls().some((args) => args.includes("--progress"))).toBe(true);

    // « Fermer »: nothing sent.
    zenity.answer(null);
    view.chatReceived({ ...LINE, id: "t2", text: "Autre chose ?" });
    await until(() => zenity.calls().filter((args) => args.includes(`--title=${ZENITY_TITLES.chat}`)).length === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toHaveLength(2);
    await view.close(false);
  });
});
