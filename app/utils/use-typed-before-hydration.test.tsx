// @vitest-environment happy-dom
/**
 * Issue 27: a field rendered by the server and typed into before React takes
 * it over keeps its text, whether React hydrates it or renders the screen
 * afresh, and the component's state holds that text.
 */
import { act, useRef, useState } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useTypedBeforeHydration } from "./use-typed-before-hydration.ts";

function Field({ keep }: { keep: boolean }) {
  const [value, setValue] = useState("");
  const [renders, setRenders] = useState(0);
  const ref = useRef<HTMLInputElement>(null);
  const marked = useTypedBeforeHydration(
    "code",
    ref,
    value,
    keep ? (typed) => setValue(typed.toUpperCase()) : () => {},
  );
  return (
    <form>
      <input ref={ref} {...marked} aria-label="Code" value={value} onChange={(event) => setValue(event.target.value)} />
      <button type="button" onClick={() => setRenders(renders + 1)} disabled={!value}>
        Envoyer {renders}
      </button>
    </form>
  );
}

/** The server's HTML in the page, and `text` typed into its field as a person would (an input event). */
function serverPageTypedInto(text: string, keep = true) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Field keep={keep} />);
  document.body.replaceChildren(container);
  const input = container.querySelector("input")!;
  input.focus();
  input.value = text;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return container;
}

// React's act() outside Testing Library's render.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("useTypedBeforeHydration", () => {
  it("hydrated: adopts the typed text into the state; it survives the next render and enables the button", async () => {
    const container = serverPageTypedInto("kp3f");
    await act(async () => void hydrateRoot(container, <Field keep />));
    const button = container.querySelector("button")!;
    // Another render of the component, as a push from the server causes.
    await act(async () => button.click());
    expect(container.querySelector("input")!.value).toBe("KP3F");
    expect(button.textContent).toBe("Envoyer 1");
  });

  it("without it, React's empty state leaves the button disabled (the bug this hook fixes)", async () => {
    const container = serverPageTypedInto("kp3f", false);
    await act(async () => void hydrateRoot(container, <Field keep={false} />));
    expect(container.querySelector("button")!.disabled).toBe(true);
  });

  it("mounted again once in use, the field gets back what its state last held, never older text", async () => {
    const mount = async () => {
      const container = document.createElement("div");
      document.body.append(container);
      const root = createRoot(container);
      await act(async () => root.render(<Field keep />));
      return { container, root };
    };
    const first = await mount();
    const input = first.container.querySelector("input")!;
    await act(async () => {
      // The prototype's setter, as a browser typing does: React's own value tracker then sees a change.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "KP3F7");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => first.root.unmount());
    first.container.remove();
    const second = await mount();
    expect(second.container.querySelector("input")!.value).toBe("KP3F7");

    // Emptied by its state (a submit): a later field starts empty.
    await act(async () => second.container.querySelector("button")!.click());
    await act(async () => second.root.unmount());
    second.container.remove();
    function Emptied() {
      const [value, setValue] = useState("");
      const ref = useRef<HTMLInputElement>(null);
      const marked = useTypedBeforeHydration("code", ref, value, setValue);
      return <input ref={ref} {...marked} aria-label="Code" value={value} onChange={(e) => setValue(e.target.value)} />;
    }
    const emptied = document.createElement("div");
    document.body.append(emptied);
    const root = createRoot(emptied);
    await act(async () => root.render(<Emptied />));
    const field = emptied.querySelector("input")!;
    expect(field.value).toBe("KP3F7");
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(field, "");
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => root.unmount());
    emptied.remove();
    const last = await mount();
    expect(last.container.querySelector("input")!.value).toBe("");
  });
});
