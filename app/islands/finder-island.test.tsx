// @vitest-environment happy-dom
/**
 * The finder island (issue 16): the finder server-rendered somewhere inside a page, then hydrated
 * alone from its container with the props the container carries, hydrates without a mismatch and
 * searches.
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { act } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import { mount } from "./finder-island.tsx";
import { ISLAND_ATTRIBUTE } from "./names.ts";

// Issue 29: the finder fetches its index from the server; here, the seed's.
vi.mock("#app/components/finder/search-index-client.ts", async () => {
  const { searchPayload } = await import("#app/catalogue/search-payload.server.ts");
  return { fetchSearchPayload: () => Promise.resolve(searchPayload) };
});

describe("finder island", () => {
  it("hydrates alone inside the page's markup, with no mismatch, and finds models", async () => {
    // Other components before it, as on a page: React's useId would then differ from a lone render.
    document.body.innerHTML = renderToString(
      <main>
        <h1>Réparation Xiaomi</h1>
        <p>Avant la recherche</p>
        <FinderSection brandSlug="xiaomi-tablet" label="Trouver mon modèle Xiaomi" />
      </main>,
    );
    const container = document.querySelector<HTMLElement>(`[${ISLAND_ATTRIBUTE}="finder"]`)!;
    const props = JSON.parse(container.dataset.props!) as object;
    expect(props).toEqual({ brandSlug: "xiaomi-tablet", label: "Trouver mon modèle Xiaomi", id: "prix-modele" });
    const errors = vi.spyOn(console, "error");
    await act(async () => mount(container, props));
    expect(errors).not.toHaveBeenCalled();

    const input = screen.getByRole("combobox", { name: "Trouver mon modèle Xiaomi" });
    await userEvent.setup().type(input, "redmi pad se");
    await waitFor(() => expect(input).toHaveAttribute("aria-expanded", "true"), { timeout: 10_000 });
    expect(screen.getAllByRole("option")[0]).toHaveTextContent("Redmi Pad SE");
    expect(errors).not.toHaveBeenCalled();
  });
});
