/**
 * Issue 38 §2 « Files both ways, with consent »: the window page's « Fichiers » area (`views/window-page.ts` puts
 * these parts in its document), drawn from `WindowFiles` (`file-texts.ts`) with `textContent` only:
 * - the question (the « fichiers » permission, or « Jean veut vous envoyer « facture.pdf » (1,2 Mo). Accepter ? »)
 *   with « Autoriser »/« Accepter » and « Refuser »;
 * - « Envoyer un fichier au technicien » (the app's process opens the system's chooser: the page cannot give a
 *   path), or, when no chooser exists, a field for the file's path and « Envoyer »;
 * - each transfer: a progress bar (`<progress>`), its line (percent, speed, time left) and « Annuler »;
 * - « Ouvrir le dossier » once a file was saved (« Enregistré dans Téléchargements : facture.pdf »).
 * Clicks become `{"type":"file","action":…}` lines (`id` for « Annuler », `text` for the path). Its visible buttons
 * are in the page's `drawn` line too (`files`: where each is, their `data-action` starting with `file`).
 */

export const FILES_STYLE = `
/* Issue 40: scrolls with the information and the messages above it (the page's \`#scroll\`). */
#files { display: none; padding: 6px 20px 0; border-top: 1px solid #d8d3c7; }
#files.on { display: block; }
#files p { margin: 2px 0 4px; }
#filequestion { display: none; padding: 8px; margin: 0 0 6px; background: #fff; border: 2px solid #2a5db0;
  border-radius: 8px; }
#filequestion.on { display: block; }
#filedetail { color: #55524a; font-size: 13px; }
#files .row { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#files button { font-size: 14px; padding: 6px 10px; }
#files progress { flex: 1 1 auto; min-width: 0; height: 14px; }
#filetransfers { list-style: none; margin: 0; padding: 0; }
#filetransfers li { margin: 0 0 6px; font-size: 13px; }
#filepath { display: none; gap: 6px; margin: 4px 0; }
#filepath.on { display: flex; }
#filepath input { flex: 1 1 auto; min-width: 0; font-size: 14px; padding: 6px; }
`;

export const FILES_HTML = `<section id="files" aria-labelledby="fileshead">
<h2 id="fileshead"></h2>
<div id="filequestion" role="alertdialog" aria-labelledby="filequestiontext">
<p id="filequestiontext"></p><p id="filedetail"></p>
<div class="row"><button id="fileaccept" class="primary" type="button" data-action="fileAccept"></button><button id="filedecline" type="button" data-action="fileDecline"></button></div>
</div>
<p id="filerequested" role="status"></p>
<ol id="filetransfers" aria-live="polite"></ol>
<div class="row"><button id="filesend" type="button" data-action="fileSend"></button><button id="fileopen" type="button" data-action="fileOpen"></button></div>
<form id="filepath"><label id="filepathlabel" for="filepathinput"></label><input id="filepathinput" autocomplete="off"><button id="filepathsend" type="submit"></button></form>
</section>`;

/** Runs in the webview, after the page's own script defines `byId` (plain ES2020). */
export const FILES_SCRIPT = `
const fileSend = (message) => atelierSend(Object.assign({ type: "file" }, message));
function renderFiles(files) {
  const section = byId("files");
  section.classList.toggle("on", Boolean(files));
  if (!files) return;
  byId("fileshead").textContent = files.heading;
  const question = byId("filequestion");
  question.classList.toggle("on", Boolean(files.question));
  if (files.question) {
    byId("filequestiontext").textContent = files.question.text;
    byId("filedetail").textContent = files.question.detail || "";
    byId("fileaccept").textContent = files.question.accept;
    byId("filedecline").textContent = files.question.decline;
  }
  byId("filerequested").textContent = files.requested || "";
  byId("filetransfers").replaceChildren(
    ...files.transfers.map((transfer) => {
      const item = document.createElement("li");
      const text = document.createElement("p");
      text.textContent = transfer.text;
      item.append(text);
      // The bar and « Annuler » on one row, under the line.
      const row = document.createElement("div");
      row.className = "row";
      if (transfer.percent !== null) {
        const bar = document.createElement("progress");
        bar.max = 100;
        bar.value = transfer.percent;
        bar.setAttribute("aria-label", transfer.text);
        row.append(bar);
      }
      if (transfer.cancel) {
        const cancel = document.createElement("button");
        cancel.type = "button";
        cancel.textContent = transfer.cancel;
        cancel.dataset.action = "fileCancel";
        cancel.addEventListener("click", () => fileSend({ action: "cancel", id: transfer.id }));
        row.append(cancel);
      }
      if (row.childElementCount > 0) item.append(row);
      return item;
    }),
  );
  byId("filesend").textContent = files.send.label;
  byId("filesend").disabled = !files.send.enabled;
  byId("fileopen").hidden = !files.open;
  byId("fileopen").textContent = files.open || "";
  const field = byId("filepath");
  field.classList.toggle("on", Boolean(files.path));
  if (files.path) {
    byId("filepathlabel").textContent = files.path.label;
    byId("filepathsend").textContent = files.path.button;
  }
}
// Where the area's visible buttons are, for the page's \`drawn\` line (CSS pixels: tests click them).
function fileBoxes() {
  return [...document.querySelectorAll("#files.on button[data-action]")]
    .filter((button) => !button.hidden && button.offsetParent !== null)
    .map((button) => {
      const box = button.getBoundingClientRect();
      return { action: button.dataset.action, x: box.x, y: box.y, width: box.width, height: box.height };
    });
}
byId("fileaccept").addEventListener("click", () => fileSend({ action: "accept" }));
byId("filedecline").addEventListener("click", () => fileSend({ action: "decline" }));
byId("filesend").addEventListener("click", () => fileSend({ action: "send" }));
byId("fileopen").addEventListener("click", () => fileSend({ action: "open" }));
byId("filepath").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = byId("filepathinput").value;
  if (!text.trim()) return;
  byId("filepathinput").value = "";
  fileSend({ action: "path", text: text });
});
`;

/** What the page says about files (`{"type":"file",…}` lines). */
export type FileWindowEvent = {
  type: "file";
  action: "accept" | "decline" | "send" | "cancel" | "open" | "path";
  id?: string;
  text?: string;
};

const FILE_ACTIONS = new Set(["accept", "decline", "send", "cancel", "open", "path"]);

/** Reads a `file` line of the page (already JSON-parsed); null when malformed. */
export function parseFileEvent(event: Record<string, unknown>): FileWindowEvent | null {
  if (typeof event.action !== "string" || !FILE_ACTIONS.has(event.action)) return null;
  const parsed: FileWindowEvent = { type: "file", action: event.action as FileWindowEvent["action"] };
  if (typeof event.id === "string") parsed.id = event.id.slice(0, 64);
  if (typeof event.text === "string") parsed.text = event.text.slice(0, 4_096);
  if (parsed.action === "path" && !parsed.text) return null;
  return parsed;
}

/** What the customer's click asks of the app (`ViewActions`' file actions). */
export type FileActions = {
  answerFile?(accept: boolean): boolean;
  sendFile?(path?: string): void;
  cancelFile?(id?: string): void;
  openFolder?(): void;
};

/** Does what a `file` line of the page asks. */
export function applyFileEvent(actions: FileActions, event: FileWindowEvent): void {
  if (event.action === "accept" || event.action === "decline") actions.answerFile?.(event.action === "accept");
  else if (event.action === "send") actions.sendFile?.();
  else if (event.action === "path") actions.sendFile?.(event.text);
  else if (event.action === "cancel") actions.cancelFile?.(event.id);
  else actions.openFolder?.();
}
