// @vitest-environment happy-dom
/**
 * ModelFinder (issue 3): the APG combobox pattern — typing lists options with
 * prices, arrows move the active option, Enter navigates, Escape closes then
 * clears, the status announces the count, and the server HTML is a labelled,
 * collapsed field. Uses the seed catalogue's index (the server's at run time). It runs without a router (issue 16): its
 * links are plain links, and Enter loads the page (`goTo`, replaced here).
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatPrice } from "#app/catalogue/format.ts";
import { goTo } from "./go-to.ts";
import { ModelFinder, type ModelFinderProps } from "./model-finder";

vi.mock("./go-to.ts", () => ({ goTo: vi.fn() }));
// Issue 29: the finder fetches its index from the server (GET /api/catalogue/recherche); here, the seed's.
vi.mock("./search-index-client.ts", async () => {
  const { searchPayload } = await import("#app/catalogue/search-payload.server.ts");
  return { fetchSearchPayload: () => Promise.resolve(searchPayload) };
});

/** The links the visitor followed by clicking (the click's page load is cancelled: happy-dom would fetch it). */
let followed: string[] = [];
const recordClick = (event: MouseEvent) => {
  const link = event.target instanceof Element ? event.target.closest("a") : null;
  if (!link) return;
  event.preventDefault();
  followed.push(link.getAttribute("href") ?? "");
};
beforeEach(() => {
  followed = [];
  vi.mocked(goTo).mockClear();
  document.addEventListener("click", recordClick);
});
afterEach(() => document.removeEventListener("click", recordClick));

function renderFinder(props: ModelFinderProps = {}) {
  render(<ModelFinder {...props} />);
  return { user: userEvent.setup(), input: screen.getByRole("combobox", { name: "Trouver mon modèle" }) };
}

/** Types `text` and waits for the options (the engine chunk loads on first use). */
async function typeAndWait(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.type(input, text);
  // The search engine is a lazy chunk: on a busy machine its first load takes more than waitFor's default 1 s.
  await waitFor(() => expect(input).toHaveAttribute("aria-expanded", "true"), { timeout: 10_000 });
  return screen.getAllByRole("option");
}

/** The model options, without the "Prendre rendez-vous" option following each. */
const modelsOf = (options: HTMLElement[]) => options.filter((option) => !option.textContent?.startsWith("Prendre"));

describe("ModelFinder", () => {
  it("server-renders a labelled, collapsed combobox and an empty status", () => {
    const html = renderToString(<ModelFinder />);
    expect(html).toContain('role="combobox"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).toContain("Trouver mon modèle</label>");
    expect(html).toContain('role="listbox"');
    expect(html).toContain('role="status"');
    expect(html).not.toContain('role="option"');
  });

  it("lists matching models with brand and up to 3 prices, the named repair first", async () => {
    const { user, input } = renderFinder();
    expect(input).toHaveAttribute("aria-expanded", "false");
    const options = await typeAndWait(user, input, "ps5 hdmi");
    expect(options[0]).toHaveTextContent("PS5");
    expect(options[0]).toHaveTextContent("PlayStation");
    // toHaveTextContent collapses the no-break spaces of the price.
    expect(options[0]).toHaveTextContent(`Port HDMI — ${formatPrice(89).replace(/\s/g, " ")}`);
    expect(options[0]).toHaveAttribute("href", expect.stringMatching(/^\/services\/playstation-repair#/));
    expect(within(options[0]!).getAllByText(/à partir de/)).toHaveLength(3);
    expect(input).toHaveAttribute("aria-controls", screen.getByRole("listbox").id);
    expect(screen.getByRole("status")).toHaveTextContent("2 modèles trouvés.");
  });

  it("moves the active option with the arrows and opens it with Enter", async () => {
    const { user, input } = renderFinder();
    const options = await typeAndWait(user, input, "iphone 13 ecran");
    expect(modelsOf(options).map((o) => o.textContent)).toEqual([
      expect.stringMatching(/^iPhone 13,/),
      expect.stringMatching(/^iPhone 13 mini/),
      expect.stringMatching(/^iPhone 13 Pro,/),
      expect.stringMatching(/^iPhone 13 Pro Max/),
    ]);
    expect(options).toHaveLength(8);
    expect(input).not.toHaveAttribute("aria-activedescendant");

    await user.keyboard("{ArrowDown}");
    expect(input).toHaveAttribute("aria-activedescendant", options[0]!.id);
    expect(options[0]).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}");
    expect(input).toHaveAttribute("aria-activedescendant", options[1]!.id);
    expect(options[0]).toHaveAttribute("aria-selected", "false");
    await user.keyboard("{ArrowUp}{ArrowUp}");
    expect(input).toHaveAttribute("aria-activedescendant", options[7]!.id); // wraps
    await user.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}");
    expect(input).toHaveAttribute("aria-activedescendant", options[2]!.id);
    expect(input).toHaveFocus();

    await user.keyboard("{Enter}");
    expect(goTo).toHaveBeenCalledExactlyOnceWith("/services/iphone-repair#iphone-13-mini");
  });

  // Issue 18 §1: every result is followed by its booking link, for the repair typed.
  it("offers « Prendre rendez-vous » after each result, pre-filled with the model and the repair typed", async () => {
    const { user, input } = renderFinder();
    const options = await typeAndWait(user, input, "iphone 13 ecran");
    expect(options[1]).toHaveTextContent(/^Prendre rendez-vous : Écran, iPhone 13$/);
    expect(options[1]).toHaveAttribute("href", "/rendez-vous?modele=iphone-13&reparation=ecran");
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter}");
    expect(goTo).toHaveBeenCalledExactlyOnceWith("/rendez-vous?modele=iphone-13&reparation=ecran");
    await user.clear(input);
    const withoutRepair = await typeAndWait(user, input, "ps5 digital");
    expect(withoutRepair[1]).toHaveAttribute("href", "/rendez-vous?modele=ps5-digital");
  });

  it("Enter without an active option opens the first result", async () => {
    const { user, input } = renderFinder();
    await typeAndWait(user, input, "redmi pad se");
    await user.keyboard("{Enter}");
    expect(goTo).toHaveBeenCalledExactlyOnceWith(
      expect.stringMatching(/^\/services\/xiaomi-tablet-repair#.*redmi-pad-se$/),
    );
  });

  it("Escape closes the list, then clears the field", async () => {
    const { user, input } = renderFinder();
    await typeAndWait(user, input, "switch");
    await user.keyboard("{ArrowDown}{Escape}");
    expect(input).toHaveAttribute("aria-expanded", "false");
    expect(input).not.toHaveAttribute("aria-activedescendant");
    expect(screen.getByRole("listbox", { hidden: true })).not.toBeVisible();
    expect(input).toHaveValue("switch");
    await user.keyboard("{Escape}");
    expect(input).toHaveValue("");
    await user.keyboard("{ArrowDown}");
    expect(input).toHaveAttribute("aria-expanded", "false");
  });

  it("follows a clicked option", async () => {
    const { user, input } = renderFinder();
    const options = await typeAndWait(user, input, "nintedo switch");
    await user.click(options[0]!);
    expect(followed).toEqual([expect.stringMatching(/^\/services\/nintendo-repair#/)]);
    expect(input).toHaveAttribute("aria-expanded", "false");
  });

  it("says when nothing is found and links to the contact page", async () => {
    const { user, input } = renderFinder();
    await user.type(input, "zzzzqx");
    const status = screen.getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Aucun modèle trouvé."));
    expect(input).toHaveAttribute("aria-expanded", "false");
    await user.click(within(status).getByRole("link", { name: "Contactez-nous" }));
    expect(followed).toEqual(["/contact"]);
  });

  it("announces counts beyond the limit", async () => {
    const { user, input } = renderFinder({ limit: 3 });
    const options = await typeAndWait(user, input, "iphone");
    expect(modelsOf(options)).toHaveLength(3);
    expect(screen.getByRole("status")).toHaveTextContent(/^\d+ modèles trouvés, les 3 premiers affichés\.$/);
  });

  it("can be scoped to a family or a brand", async () => {
    const { user, input } = renderFinder({ family: "tablet" });
    const options = await typeAndWait(user, input, "xiaomi");
    expect(options.length).toBeGreaterThan(0);
    for (const option of modelsOf(options)) expect(option).toHaveTextContent("Tablette");
  });

  it("derives every id from its `id` prop (an island hydrated alone keeps the page's ids)", async () => {
    const { user, input } = renderFinder({ id: "prix-modele" });
    expect(input.id).toBe("prix-modele-champ");
    expect(input).toHaveAttribute("aria-controls", "prix-modele-liste");
    const options = await typeAndWait(user, input, "ps5 hdmi");
    expect(options[0]!.id).toMatch(/^prix-modele-/);
  });
});
