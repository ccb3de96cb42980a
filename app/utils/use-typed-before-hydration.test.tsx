// @vitest-environment happy-dom
/**
 * Issue 27: a field rendered by the server and typed into before React
 * hydrates keeps its text through hydration and the renders after it, and
 * the component's state holds that text.
 */
import { act, useRef, useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useTypedBeforeHydration } from "./use-typed-before-hydration.ts";

function Field({ keep }: { keep: boolean }) {
  const [value, setValue] = useState("");
  const [renders, setRenders] = useState(0);
  const ref = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(ref, value, keep ? (typed) => setValue(typed.toUpperCase()) : () => {});
  return (
    <form>
      <input ref={ref} aria-label="Code" value={value} onChange={(event) => setValue(event.target.value)} />
      <button type="button" onClick={() => setRenders(renders + 1)} disabled={!value}>
        Envoyer {renders}
      </button>
    </form>
  );
}

async function typeThenHydrate(keep: boolean) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Field keep={keep} />);
  document.body.replaceChildren(container);
  const input = container.querySelector("input")!;
  input.value = "kp3f"; // typed by the person before the scripts ran
  await act(async () => {
    hydrateRoot(container, <Field keep={keep} />);
  });
  const button = container.querySelector("button")!;
  // Another render of the component, as a push from the server causes.
  await act(async () => button.click());
  return { input, button };
}

describe("useTypedBeforeHydration", () => {
  it("adopts the typed text into the state: it survives the next render and enables the button", async () => {
    const { input, button } = await typeThenHydrate(true);
    expect(input.value).toBe("KP3F");
    expect(button.disabled).toBe(false);
    expect(button.textContent).toBe("Envoyer 1");
  });

  it("without it, React's empty state leaves the button disabled (the bug this hook fixes)", async () => {
    const { input, button } = await typeThenHydrate(false);
    expect(button.disabled).toBe(true);
    expect(input.value).toBe("kp3f");
  });
});
