/**
 * Issue 38 §2 « Files both ways, with consent », what the customer sees and does in each interface: the terminal's
 * question with its O/N keys (answering the file before a restart), F then a typed path, a progress line with
 * speed and time left; the window's « Fichiers » area in happy-dom (the question with « Accepter »/« Refuser »,
 * « Envoyer un fichier au technicien », a progress bar, « Annuler », « Ouvrir le dossier », « Arrêter
 * l'assistance » still below); zenity's question through a fake `zenity`; the system's chooser through a fake runner.
 */
import { PassThrough } from "node:stream";
import { Window } from "happy-dom";
import { afterEach, describe, expect, it } from "vitest";
import { STATE } from "../../test/fake-server.ts";
import { fakeZenity } from "../../test/fake-zenity.ts";
import { renderScreen, type ScreenModel } from "../ui.ts";
import { listenKeys } from "../views/terminal.ts";
import type { ViewActions } from "../views/view.ts";
import { windowPage } from "../views/window-page.ts";
import { parseWindowEvent, type WindowState, windowState } from "../views/window-state.ts";
import { ZenityAppView, ZENITY_TITLES } from "../views/zenity.ts";
import { chooseFile } from "./chooser.ts";
import type { FilesModel, TransferModel } from "./file-texts.ts";

const RUNNING: TransferModel = {
  id: "t1",
  direction: "to-customer",
  name: "facture.pdf",
  size: 1_200_000,
  done: 540_000,
  state: "running",
  message: "",
  bytesPerSecond: 850_000,
  secondsLeft: 1,
  savedAs: null,
};
const FILES: FilesModel = {
  question: { kind: "offer", id: "t2", from: "Jean", name: "pilote.zip", size: 1_200_000 },
  transfers: [RUNNING],
  available: true,
  folderName: "Téléchargements",
  pathField: false,
  requested: false,
};
const MODEL: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: STATE,
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
  files: FILES,
  columns: 120,
};

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("the terminal", () => {
  it("asks the question with O/N, shows the progress line with speed and time left, and the keys", () => {
    const text = renderScreen(MODEL);
    expect(text).toContain("? Jean veut vous envoyer « pilote.zip » (1,2 Mo). Accepter ?");
    expect(text).toContain("O : accepter · N : refuser.");
    expect(text).toContain("Réception de « facture.pdf » : 45 % (540 Ko sur 1,2 Mo) · 850 Ko/s · encore 1 s");
    expect(text).toContain("[█████████···········]");
    expect(text).toContain("F : envoyer un fichier au technicien (tapez ensuite son chemin).");
    expect(text).toContain("X : annuler le transfert en cours.");
    const saved = renderScreen({
      ...MODEL,
      files: {
        ...FILES,
        question: null,
        transfers: [{ ...RUNNING, state: "done", done: RUNNING.size, savedAs: "facture (1).pdf" }],
      },
    });
    expect(saved).toContain("Enregistré dans Téléchargements : facture (1).pdf");
    expect(saved).toContain("D : ouvrir le dossier");
    expect(saved).not.toContain("O : accepter");
    const permission = renderScreen({ ...MODEL, files: { ...FILES, question: { kind: "permission", id: "p1" } } });
    expect(permission).toContain("? Autoriser l'échange de fichiers avec le technicien ?");
  });

  it("O/N answer the file question before a restart's; F takes a typed path; X cancels", async () => {
    const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
    const calls: string[] = [];
    let fileQuestion = true;
    const actions: ViewActions = {
      view: () => {},
      allowControl: () => {},
      withdraw: () => {},
      stop: () => {},
      answerFile: (accept) => {
        calls.push(`file:${accept}`);
        return fileQuestion;
      },
      acceptReboot: () => calls.push("reboot:oui"),
      declineReboot: () => calls.push("reboot:non"),
      sendFile: (file) => calls.push(`send:${file}`),
      cancelFile: () => calls.push("cancel"),
    };
    const drafts: (string | null)[] = [];
    const stop = listenKeys(stdin, actions, undefined, { available: () => true, onDraft: (d) => drafts.push(d) });
    cleanup.push(stop);
    const type = async (text: string) => {
      stdin.write(text);
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await type("o\n");
    await type("non\n");
    fileQuestion = false;
    await type("o\n");
    await type("f\n");
    await type("'/home/marie/Mes documents/devis.pdf'\n");
    await type("x\n");
    expect(calls).toEqual([
      "file:true",
      "file:false",
      "file:true",
      "reboot:oui",
      "send:'/home/marie/Mes documents/devis.pdf'",
      "cancel",
    ]);
    expect(drafts).toContain("");
  });
});

/** The window's page with its script running (as in `window-page.test.ts`). */
async function page() {
  const window = new Window({
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
  });
  cleanup.push(() => window.happyDOM.close());
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
  const show = async (state: WindowState) => {
    next = state;
    await new Promise((resolve) => setTimeout(resolve, 250));
  };
  const byId = (id: string) => window.document.getElementById(id)! as unknown as HTMLElement;
  return { document: window.document, sent, show, byId };
}

describe("the window's « Fichiers » area", () => {
  it("asks with « Accepter »/« Refuser », shows the progress, cancels, sends, opens the folder", async () => {
    const { document, sent, show, byId } = await page();
    await show(windowState(MODEL));
    expect(byId("files").classList.contains("on")).toBe(true);
    expect(byId("filequestiontext").textContent).toBe("Jean veut vous envoyer « pilote.zip » (1,2 Mo). Accepter ?");
    expect(byId("fileaccept").textContent).toBe("Accepter");
    expect(byId("filedecline").textContent).toBe("Refuser");
    const bar = document.querySelector("#filetransfers progress") as unknown as HTMLProgressElement;
    expect(bar.value).toBe(45);
    expect(document.querySelector("#filetransfers p")!.textContent).toContain("850 Ko/s · encore 1 s");
    byId("fileaccept").click();
    (document.querySelector("#filetransfers button") as unknown as HTMLElement).click();
    byId("filesend").click();
    expect(byId("filesend").textContent).toBe("Envoyer un fichier au technicien");
    expect(sent.filter((message) => message.type === "file")).toEqual([
      { type: "file", action: "accept" },
      { type: "file", action: "cancel", id: "t1" },
      { type: "file", action: "send" },
    ]);
    // The lines the page writes are what the app reads.
    expect(parseWindowEvent(JSON.stringify({ type: "file", action: "cancel", id: "t1" }))).toEqual({
      type: "file",
      action: "cancel",
      id: "t1",
    });

    // Saved, no chooser here: « Ouvrir le dossier » and a field for the path.
    const done = { ...RUNNING, state: "done" as const, done: RUNNING.size, savedAs: "facture.pdf" };
    await show(windowState({ ...MODEL, files: { ...FILES, question: null, transfers: [done], pathField: true } }));
    expect(byId("filequestion").classList.contains("on")).toBe(false);
    expect(document.querySelector("#filetransfers p")!.textContent).toBe(
      "Enregistré dans Téléchargements : facture.pdf",
    );
    expect(byId("fileopen").hidden).toBe(false);
    byId("fileopen").click();
    (byId("filepathinput") as HTMLInputElement).value = "C:\\Users\\Marie\\devis.pdf";
    (byId("filepathsend") as HTMLButtonElement).click();
    expect(sent.filter((message) => message.type === "file").slice(-2)).toEqual([
      { type: "file", action: "open" },
      { type: "file", action: "path", text: "C:\\Users\\Marie\\devis.pdf" },
    ]);
    // « Arrêter l'assistance » stays below, outside the scrolling parts.
    const stop = document.querySelector('#buttons [data-action="stop"]')!;
    expect(stop.textContent).toBe("Arrêter l'assistance");
    expect(byId("files").compareDocumentPosition(stop as unknown as Node) & 4).toBe(4);
  });
});

/** A fake zenity: a file question succeeds (« Accepter »); every other dialog stays open. */
function fakeFileZenity() {
  const zenity = fakeZenity("zenity-fichiers", () => `  *"${ZENITY_TITLES.files}"*) exit 0 ;;`);
  cleanup.push(() => zenity.remove());
  return zenity;
}

describe("zenity", () => {
  it("asks each file in a question dialog of its own and reports the answer", async () => {
    const zenity = fakeFileZenity();
    const view = new ZenityAppView(zenity.file, process.env, { onClose: () => {} }, { write: () => true });
    cleanup.push(() => view.close(false));
    const answers: boolean[] = [];
    view.listen({
      view: () => {},
      allowControl: () => {},
      withdraw: () => {},
      stop: () => {},
      answerFile: (accept) => (answers.push(accept), true),
    });
    view.draw({ ...MODEL, keys: false, state: { ...STATE, controlRequested: false } });
    await expect.poll(() => answers).toEqual([true]);
    const dialog = zenity.calls().find((args) => args.includes(`--title=${ZENITY_TITLES.files}`))!;
    expect(dialog).toContain("--question");
    expect(dialog).toContain("--text=Jean veut vous envoyer « pilote.zip » (1,2 Mo). Accepter ?");
    expect(dialog).toContain("--ok-label=Accepter");
    expect(dialog).toContain("--cancel-label=Refuser");
    // The progress line is in the status dialog.
    const status = zenity.calls().find((args) => args.includes("--progress"))!;
    expect(status.find((arg) => arg.startsWith("--text="))).toContain("Réception de « facture.pdf » : 45 %");
  });

  it("picks the file to send with zenity's file selection; a cancel is null, no chooser undefined", async () => {
    const zenity = fakeFileZenity();
    const env = { PATH: zenity.folder, HOME: "/home/marie" };
    const runs: string[][] = [];
    const picked = await chooseFile("linux", env, async (command, args) => {
      runs.push([command, ...args]);
      return { code: 0, output: "/home/marie/Téléchargements/devis.pdf\n" };
    });
    expect(picked).toBe("/home/marie/Téléchargements/devis.pdf");
    expect(runs[0]).toEqual([zenity.file, "--file-selection", "--title=Choisir le fichier à envoyer au technicien"]);
    expect(await chooseFile("linux", env, async () => ({ code: 1, output: "" }))).toBeNull();
    expect(await chooseFile("linux", { PATH: "/nulle-part" }, async () => ({ code: 0, output: "x" }))).toBeUndefined();
  });
});
