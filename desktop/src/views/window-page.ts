/**
 * The page inside the window (issue 27, "The window"): one self-contained
 * HTML document (no network, no file), French, that draws a `WindowState`
 * and reports clicks. It runs in the webview (WebKitGTK, WebView2,
 * WKWebView), where `window-child.ts` binds two functions:
 * - `atelierPoll()` → the newest `WindowState`, or null when nothing
 *   changed; the page asks every `POLL_MS` (the webview's run loop blocks the
 *   child's JavaScript, so the page pulls rather than being pushed to);
 * - `atelierSend(message)` → a `start` (the form), an `action` (a button)
 *   or `drawn` (a state is on screen, with its code, sign and where its
 *   buttons are) line for the main process.
 * Texts are set with `textContent` only: nothing from the server becomes markup.
 *
 * Issue 38 §1: the « Messages » area between the information (which scrolls) and the buttons (always in view,
 * « Arrêter l'assistance » included): the conversation (scrolling, newest at the bottom), « Votre message » and
 * « Envoyer » (Entrée sends: a `chat` line with the page's number for it; the field empties once the state says
 * that number was accepted). The page also reports when the window gains or loses the focus (`focus`).
 * Issue 38 §4: the first question's box « Envoyer les informations de l'ordinateur au technicien », ticked as the
 * state says when the question appears, its state sent with the answer (`start`'s `facts`).
 * Issue 38 §2: the « Fichiers » area above the buttons (`files/file-page.ts`): the file question, « Envoyer un
 * fichier au technicien », each transfer's progress bar and « Annuler », « Ouvrir le dossier ».
 * Issue 40: at the window's 460 × 600 the information, the messages and the files scroll together (`#scroll`)
 * while the buttons stay in a bar at the bottom, two by two, « Arrêter l'assistance » across the whole bar: always
 * in view. The first question asks « Votre prénom »; « J'ai un code d'appairage » (a link under « Démarrer »)
 * swaps in the pairing code's field, the `start` line then says `field: "code"`.
 */

import { CHAT_MAX_CHARS } from "#app/remote-support/protocol.ts";
import { FILES_HTML, FILES_SCRIPT, FILES_STYLE } from "../files/file-page.ts";

/** How often the page asks for a new state, in milliseconds. */
export const POLL_MS = 80;

const STYLE = `
:root { color-scheme: light; font-family: "DejaVu Sans", "Segoe UI", system-ui, sans-serif; }
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; background: #f6f4ef; color: #1d1d1b; font-size: 15px; line-height: 1.4;
  display: flex; flex-direction: column; overflow: hidden; }
#scroll { flex: 1 1 auto; min-height: 0; overflow-y: auto; }
main { padding: 16px 20px 8px; }
h1 { font-size: 16px; margin: 0 0 6px; color: #3d3a33; }
#sign { display: none; margin: 0; padding: 10px 20px; background: #b3261e; color: #fff; font-weight: bold; }
#sign.on { display: block; }
#status { margin: 0 0 10px; color: #55524a; }
#codebox { display: none; margin: 6px 0 14px; padding: 12px; background: #fff; border: 2px solid #2a5db0;
  border-radius: 8px; text-align: center; }
#codebox.on { display: block; }
#code { font: bold 54px/1.1 "DejaVu Sans Mono", Consolas, Menlo, monospace; letter-spacing: 6px; color: #14386e; }
#lines p { margin: 4px 0; }
.warn { color: #8a3b00; }
.notice { color: #55524a; font-size: 13px; }
#buttons { flex: none; display: grid; grid-template-columns: 1fr 1fr; gap: 6px; padding: 8px 20px 12px;
  border-top: 1px solid #d8d3c7; }
#buttons:empty { display: none; }
#buttons button { font-size: 15px; padding: 8px 10px; }
#buttons [data-action="stop"], #buttons [data-action="close"] { grid-column: 1 / -1; }
#chat { display: none; flex-direction: column; padding: 6px 20px 0; border-top: 1px solid #d8d3c7; }
#chat.on { display: flex; }
h2 { font-size: 14px; margin: 0 0 4px; color: #3d3a33; }
#messages { list-style: none; margin: 0; padding: 0; overflow-y: auto; max-height: 150px; min-height: 0; }
#messages li { margin: 0 0 6px; }
#messages .who { display: block; font-size: 12px; color: #55524a; }
#messages .technician .who { color: #14386e; font-weight: bold; }
#messages .text { white-space: pre-wrap; overflow-wrap: anywhere; }
#chathint { margin: 0 0 4px; color: #55524a; font-size: 13px; }
#chatform { display: flex; flex-direction: column; gap: 4px; margin: 4px 0 0; }
#chatform .row { display: flex; gap: 6px; }
#chatform input { flex: 1 1 auto; min-width: 0; font-size: 15px; padding: 6px; }
#chatform button { font-size: 15px; padding: 6px 12px; }
#chaterror { color: #b3261e; margin: 0; font-size: 13px; }
button { font: inherit; font-size: 16px; padding: 10px 12px; border-radius: 8px; border: 1px solid #8d897e;
  background: #fff; color: #1d1d1b; cursor: pointer; }
button.primary { background: #2a5db0; border-color: #2a5db0; color: #fff; font-weight: bold; }
button.danger { background: #fff; border-color: #b3261e; color: #b3261e; }
button:focus-visible, input:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
#start { display: none; flex-direction: column; gap: 8px; }
#start.on { display: flex; }
#start .field { display: flex; flex-direction: column; gap: 8px; }
#start .field[hidden] { display: none; }
button.link { border: none; background: none; padding: 4px 0; color: #14386e; text-decoration: underline;
  font-size: 15px; align-self: flex-start; text-align: left; }
input { font: inherit; font-size: 18px; padding: 8px; border: 1px solid #8d897e; border-radius: 6px; }
#error { color: #b3261e; margin: 0; min-height: 1.4em; }
#facts { display: flex; gap: 8px; align-items: flex-start; }
#facts[hidden] { display: none; }
#facts input { width: 18px; height: 18px; margin: 3px 0 0; flex: none; }
#factsdetail { display: block; color: #55524a; font-size: 13px; }
`;

/** Runs in the webview: see the module comment. Kept as plain ES2020 (no TypeScript syntax). */
const SCRIPT = `
"use strict";
const byId = (id) => document.getElementById(id);
function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}
function render(state) {
  document.title = state.title;
  byId("heading").textContent = state.heading;
  byId("status").textContent = state.status;
  byId("sign").textContent = state.sign || "";
  byId("sign").classList.toggle("on", Boolean(state.sign));
  byId("codebox").classList.toggle("on", Boolean(state.code));
  byId("codehint").textContent = state.codeHint || "";
  byId("code").textContent = state.code || "";
  const lines = byId("lines");
  lines.replaceChildren(
    ...state.lines.map((text) => paragraph(text)),
    ...state.warnings.map((text) => paragraph("⚠ " + text, "warn")),
    ...state.notices.map((text) => paragraph("• " + text, "notice")),
  );
  const form = byId("start");
  const asking = Boolean(state.ask);
  const wasAsking = form.classList.contains("on");
  form.classList.toggle("on", asking);
  if (asking) {
    ask = state.ask;
    byId("label").textContent = state.ask.label;
    byId("codelabel").textContent = state.ask.pairing.label;
    byId("go").textContent = state.ask.button;
    byId("error").textContent = state.ask.error || "";
    byId("facts").hidden = !state.ask.facts;
    if (state.ask.facts) {
      byId("factslabel").textContent = state.ask.facts.label;
      byId("factsdetail").textContent = state.ask.facts.detail;
      if (!wasAsking) byId("sendfacts").checked = state.ask.facts.send;
    }
    byId("answer").disabled = false;
    byId("pairing").disabled = false;
    byId("go").disabled = false;
    showField(wasAsking ? field : state.ask.field, !wasAsking);
  }
  const buttons = byId("buttons");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.action : null;
  buttons.replaceChildren(
    ...state.buttons.map((button) => {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = button.label;
      element.className = button.kind;
      element.dataset.action = button.action;
      element.addEventListener("click", () => atelierSend({ type: "action", action: button.action }));
      return element;
    }),
  );
  if (focused) {
    const again = buttons.querySelector('[data-action="' + focused + '"]');
    if (again) again.focus();
  }
  renderChat(state.chat);
  renderFiles(state.files);
  bringIntoView(state);
  // What is on screen now, with where each button is (CSS pixels in the window): the main process's tests and
  // benchmark read it; the app itself only waits for the first one.
  const boxes = [...document.querySelectorAll("#buttons button, form.on #go, form.on #switch")].map((element) => {
    const box = element.getBoundingClientRect();
    return { action: element.dataset.action || "start", x: box.x, y: box.y, width: box.width, height: box.height };
  });
  // Said once the new state is painted (two animation frames), or after 150 ms if frames are throttled.
  const drawn = { type: "drawn", code: state.code, sign: state.sign, asking: asking, buttons: boxes, files: fileBoxes() };
  let said = false;
  const say = () => {
    if (said) return;
    said = true;
    atelierSend(drawn);
  };
  requestAnimationFrame(() => requestAnimationFrame(say));
  setTimeout(say, 150);
}
// Issue 40: everything but the buttons' bar scrolls in \`#scroll\`; what waits for the customer's answer is brought
// into view when it appears or changes: a file's question, else a transfer and « Envoyer un fichier » beside it.
let filesSeen = "";
function reveal(element) {
  if (element.scrollIntoView) element.scrollIntoView({ block: "nearest" });
}
function bringIntoView(state) {
  const files = state.files;
  const seen = files
    ? JSON.stringify([files.question && files.question.text, files.transfers.map((item) => item.id), files.open])
    : "";
  if (seen === filesSeen) return;
  filesSeen = seen;
  if (files && files.question) reveal(byId("filequestion"));
  else if (files && (files.transfers.length > 0 || files.open)) reveal(byId("filesend").parentElement);
}
// Issue 38 §1: the « Messages » area. \`pending\`: the number of the message sent and not yet accepted.
let chatSeq = 0;
let pending = 0;
let lastLine = null;
function renderChat(chat) {
  const section = byId("chat");
  section.classList.toggle("on", Boolean(chat));
  if (!chat) return;
  byId("chathead").textContent = chat.heading;
  byId("chatlabel").textContent = chat.label;
  byId("chatsend").textContent = chat.button;
  const list = byId("messages");
  list.replaceChildren(
    ...chat.lines.map((line) => {
      const item = document.createElement("li");
      item.className = line.from;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = line.time ? line.author + " · " + line.time : line.author;
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = line.text;
      item.append(who, text);
      return item;
    }),
  );
  const newest = chat.lines.length ? chat.lines[chat.lines.length - 1].id : null;
  if (newest !== lastLine) list.scrollTop = list.scrollHeight;
  // Issue 40: a technician's new line shows, even when the messages are below what the scrolling area shows.
  const last = chat.lines[chat.lines.length - 1];
  if (newest !== lastLine && last && last.from === "technician") reveal(section);
  lastLine = newest;
  byId("chathint").textContent = chat.hint || "";
  byId("chaterror").textContent = chat.error || "";
  byId("message").disabled = !chat.enabled;
  byId("chatsend").disabled = !chat.enabled || chat.sending;
  if (pending && chat.accepted >= pending) {
    byId("message").value = "";
    pending = 0;
  }
}
byId("chatform").addEventListener("submit", (event) => {
  event.preventDefault();
  if (byId("chatsend").disabled) return;
  chatSeq += 1;
  pending = chatSeq;
  atelierSend({ type: "chat", text: byId("message").value, seq: chatSeq });
});
const reportFocus = () => atelierSend({ type: "focus", focused: document.hasFocus() });
window.addEventListener("focus", reportFocus);
window.addEventListener("blur", reportFocus);
// Issue 40: the first question's field, the first name's or the pairing code's; \`ask\`: the question on screen.
let ask = null;
let field = "name";
function showField(which, focus) {
  field = which;
  const code = which === "code";
  byId("namefield").hidden = code;
  byId("codefield").hidden = !code;
  byId("explain").textContent = code ? ask.pairing.explain : ask.explain;
  byId("switch").textContent = code ? ask.pairing.back : ask.pairing.link;
  if (focus) byId(code ? "pairing" : "answer").focus();
}
byId("switch").addEventListener("click", () => {
  if (!ask) return;
  byId("error").textContent = "";
  showField(field === "code" ? "name" : "code", true);
});
byId("start").addEventListener("submit", (event) => {
  event.preventDefault();
  byId("answer").disabled = true;
  byId("pairing").disabled = true;
  byId("go").disabled = true;
  const facts = byId("facts").hidden ? undefined : byId("sendfacts").checked;
  const text = byId(field === "code" ? "pairing" : "answer").value;
  atelierSend({ type: "start", text: text, field: field, facts: facts });
});
async function poll() {
  try {
    const state = await atelierPoll();
    if (state) render(state);
  } catch (error) {
    // The next poll tries again.
  }
  setTimeout(poll, POLL_MS);
}
poll();
reportFocus();
`;

/** The whole document given to `webview_set_html`. */
export function windowPage(): string {
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>Assistance à distance</title><style>${STYLE}${FILES_STYLE}</style></head>
<body>
<p id="sign" role="status" aria-live="assertive"></p>
<div id="scroll">
<main>
<h1 id="heading"></h1>
<p id="status" role="status" aria-live="polite"></p>
<div id="codebox"><p id="codehint"></p><div id="code" aria-label="Code de session"></div></div>
<form id="start">
<p id="explain"></p>
<div id="namefield" class="field"><label id="label" for="answer"></label><input id="answer" name="answer" autocomplete="off" maxlength="80"></div>
<div id="codefield" class="field" hidden><label id="codelabel" for="pairing"></label><input id="pairing" name="pairing" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32"></div>
<p id="error" role="alert"></p>
<div id="facts" hidden><input id="sendfacts" type="checkbox"><label for="sendfacts"><span id="factslabel"></span><span id="factsdetail"></span></label></div>
<button id="go" class="primary" type="submit"></button>
<button id="switch" class="link" type="button" data-action="field"></button>
</form>
<div id="lines"></div>
</main>
<section id="chat" aria-labelledby="chathead">
<h2 id="chathead"></h2>
<ol id="messages" aria-live="polite"></ol>
<p id="chathint"></p>
<form id="chatform">
<label id="chatlabel" for="message"></label>
<div class="row"><input id="message" name="message" autocomplete="off" maxlength="${CHAT_MAX_CHARS}"><button id="chatsend" class="primary" type="submit"></button></div>
<p id="chaterror" role="alert"></p>
</form>
</section>
${FILES_HTML}
</div>
<div id="buttons"></div>
<script>const POLL_MS = ${POLL_MS};${SCRIPT}${FILES_SCRIPT}</script>
</body>
</html>`;
}
