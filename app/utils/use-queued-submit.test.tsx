// @vitest-environment happy-dom
/**
 * Issue 39 §2: Entrée pressed in a server-rendered form before React takes it over is neither lost nor
 * turned into a page reload: the page says « envoi… », and the form's own handler runs exactly once when
 * React is ready, with the text typed meanwhile.
 */
import { act, useRef, useState, type FormEvent } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { QUEUED_SUBMIT_SCRIPT, SUBMIT_QUEUED_ATTRIBUTE } from "./queued-submit.ts";
import { QueuedSubmitStatus, useQueuedSubmit } from "./use-queued-submit.tsx";
import { useTypedBeforeHydration } from "./use-typed-before-hydration.ts";

// React's act() outside Testing Library's render.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The inline script, run once for the document as the page's HTML would.
new Function(QUEUED_SUBMIT_SCRIPT)();

function Question({ sent, ready = true }: { sent: string[]; ready?: boolean }) {
  const [draft, setDraft] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const keepTyped = useTypedBeforeHydration("question", inputRef, draft, setDraft);
  const { formProps: queueSubmit, queue } = useQueuedSubmit("question", formRef, ready);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.trim()) return;
    if (!ready) return queue();
    sent.push(draft);
    setDraft("");
  }
  return (
    <form ref={formRef} {...queueSubmit} onSubmit={submit}>
      <input
        ref={inputRef}
        {...keepTyped}
        aria-label="Question"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
      />
      <QueuedSubmitStatus />
      <button type="submit" disabled={!draft.trim()}>
        Envoyer
      </button>
    </form>
  );
}

/** The server's HTML in the page, `text` typed into its field, then Entrée pressed, before any React. */
function serverPageSentBeforeHydration(text: string) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Question sent={[]} />);
  document.body.replaceChildren(container);
  const input = container.querySelector("input")!;
  input.focus();
  input.value = text;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
  input.dispatchEvent(enter);
  return { container, enter };
}

const status = (container: HTMLElement) => container.querySelector<HTMLElement>("[data-queued-status]")!;

afterEach(() => document.documentElement.removeAttribute(SUBMIT_QUEUED_ATTRIBUTE));

describe("useQueuedSubmit", () => {
  it("before React: Entrée does nothing the browser would do, and « envoi… » shows", () => {
    const { container, enter } = serverPageSentBeforeHydration("Mon écran reste noir");
    expect(enter.defaultPrevented).toBe(true);
    expect(status(container).hidden).toBe(false);
    expect(status(container).textContent).toBe("envoi…");
  });

  it("once hydrated: the form's own handler sends the typed text exactly once, and « envoi… » goes", async () => {
    const { container } = serverPageSentBeforeHydration("Mon écran reste noir");
    const sent: string[] = [];
    await act(async () => void hydrateRoot(container, <Question sent={sent} />));
    expect(sent).toEqual(["Mon écran reste noir"]);
    expect(container.querySelector("input")!.value).toBe("");
    expect(status(container).hidden).toBe(true);
    // Hydrated: Entrée is React's again, nothing queued twice.
    await act(async () => void container.querySelector("form")!.requestSubmit());
    expect(sent).toEqual(["Mon écran reste noir"]);
  });

  it("waits while the form is not ready (the chat's connection), then sends once", async () => {
    const { container } = serverPageSentBeforeHydration("Bonjour");
    const sent: string[] = [];
    const root = await act(async () => hydrateRoot(container, <Question sent={sent} ready={false} />));
    expect(sent).toEqual([]);
    expect(status(container).hidden).toBe(false);
    await act(async () => root.render(<Question sent={sent} ready />));
    await act(async () => root.render(<Question sent={sent} ready />));
    expect(sent).toEqual(["Bonjour"]);
  });

  it("a press once hydrated but before ready waits the same way, and is sent once", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Question sent={[]} ready={false} />);
    document.body.replaceChildren(container);
    const sent: string[] = [];
    const root = await act(async () => hydrateRoot(container, <Question sent={sent} ready={false} />));
    const input = container.querySelector("input")!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "Vite");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => void container.querySelector("form")!.requestSubmit());
    expect(sent).toEqual([]);
    expect(status(container).hidden).toBe(false);
    await act(async () => root.render(<Question sent={sent} ready />));
    expect(sent).toEqual(["Vite"]);
    expect(status(container).hidden).toBe(true);
  });

  it("sends nothing when nothing was pressed before React", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Question sent={[]} />);
    document.body.replaceChildren(container);
    const sent: string[] = [];
    await act(async () => void hydrateRoot(container, <Question sent={sent} />));
    expect(sent).toEqual([]);
    expect(status(container).hidden).toBe(true);
  });
});
