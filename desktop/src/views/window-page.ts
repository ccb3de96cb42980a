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
main { padding: 16px 20px 8px; flex: 1 1 auto; overflow-y: auto; min-height: 48px; }
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
#buttons { display: flex; flex-direction: column; gap: 8px; padding: 8px 20px 14px; flex: none; }
#chat { display: none; flex: 0 1 auto; flex-direction: column; min-height: 0; padding: 6px 20px 0;
  border-top: 1px solid #d8d3c7; }
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
    byId("explain").textContent = state.ask.explain;
    byId("label").textContent = state.ask.label;
    byId("go").textContent = state.ask.button;
    byId("error").textContent = state.ask.error || "";
    byId("facts").hidden = !state.ask.facts;
    if (state.ask.facts) {
      byId("factslabel").textContent = state.ask.facts.label;
      byId("factsdetail").textContent = state.ask.facts.detail;
      if (!wasAsking) byId("sendfacts").checked = state.ask.facts.send;
    }
    byId("answer").disabled = false;
    byId("go").disabled = false;
    if (!wasAsking) byId("answer").focus();
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
  // What is on screen now, with where each button is (CSS pixels in the window): the main process's tests and
  // benchmark read it; the app itself only waits for the first one.
  const boxes = [...document.querySelectorAll("#buttons button, form.on #go")].map((element) => {
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
byId("start").addEventListener("submit", (event) => {
  event.preventDefault();
  byId("answer").disabled = true;
  byId("go").disabled = true;
  const facts = byId("facts").hidden ? undefined : byId("sendfacts").checked;
  atelierSend({ type: "start", text: byId("answer").value, facts: facts });
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
<main>
<h1 id="heading"></h1>
<p id="status" role="status" aria-live="polite"></p>
<div id="codebox"><p id="codehint"></p><div id="code" aria-label="Code de session"></div></div>
<form id="start">
<p id="explain"></p>
<label id="label" for="answer"></label>
<input id="answer" name="answer" autocomplete="off" maxlength="80">
<p id="error" role="alert"></p>
<div id="facts" hidden><input id="sendfacts" type="checkbox"><label for="sendfacts"><span id="factslabel"></span><span id="factsdetail"></span></label></div>
<button id="go" class="primary" type="submit"></button>
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
<div id="buttons"></div>
<script>const POLL_MS = ${POLL_MS};${SCRIPT}${FILES_SCRIPT}</script>
</body>
</html>`;
}
