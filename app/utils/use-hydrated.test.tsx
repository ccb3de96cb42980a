// @vitest-environment happy-dom
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { useHydrated } from "./use-hydrated.ts";

function Probe() {
  return <button disabled={!useHydrated()}>Partager</button>;
}

describe("useHydrated", () => {
  it("is false in the server's HTML and true once the page is hydrated", async () => {
    const html = renderToString(<Probe />);
    expect(html).toContain("disabled");
    const container = document.createElement("div");
    container.innerHTML = html;
    await act(async () => {
      hydrateRoot(container, <Probe />);
    });
    expect(container.querySelector("button")!.disabled).toBe(false);
  });
});
