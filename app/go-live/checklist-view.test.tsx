// @vitest-environment happy-dom
/**
 * Issue 40 « Mise en ligne »: each point « À faire » or « Fait » with what is left, the server variables to
 * set, and a button to its setting's view (« Boutique », « Sauvegardes ») that opens it.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import GoLiveChecklistView, { remainingText } from "./checklist-view.tsx";
import type { GoLiveChecklist } from "./protocol.ts";

const CHECKLIST: GoLiveChecklist = {
  remaining: 2,
  items: [
    {
      id: "legal",
      done: false,
      title: "Mentions légales",
      detail: "Encore des valeurs d'exemple, visibles sur la page des mentions légales : « Raison sociale ».",
      missing: ["Raison sociale"],
      setting: { view: "shop", variables: [] },
    },
    {
      id: "mail",
      done: true,
      title: "Envoi des e-mails",
      detail: "Les e-mails partent du serveur.",
      missing: [],
      setting: { view: "shop", variables: ["SMTP_URL", "MAIL_FROM"] },
    },
    {
      id: "backups",
      done: false,
      title: "Sauvegardes hors de cette machine",
      detail: "Les sauvegardes ne sont que sur cette machine.",
      missing: [],
      setting: { view: "backups", variables: ["BACKUP_DIR"] },
    },
    {
      id: "assistant",
      done: true,
      title: "Assistant virtuel (IA)",
      detail: "Un fournisseur d'IA répond aux questions des clients.",
      missing: [],
      setting: { view: null, variables: ["OPENAI_API_KEY"] },
    },
  ],
};

describe("« Mise en ligne »", () => {
  it("lists each point with its state and opens its setting's view", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json(CHECKLIST));
    const onOpen = vi.fn();
    render(<GoLiveChecklistView onOpen={onOpen} />);
    expect(await screen.findByText("2 points à régler avant l'ouverture.")).toBeInTheDocument();
    const items = within(screen.getByRole("list", { name: "Points à vérifier avant l'ouverture" })).getAllByRole(
      "listitem",
    );
    expect(items.map((item) => within(item).getByRole("heading").textContent)).toEqual([
      "Mentions légales",
      "Envoi des e-mails",
      "Sauvegardes hors de cette machine",
      "Assistant virtuel (IA)",
    ]);
    expect(within(items[0]!).getByText("À faire")).toBeInTheDocument();
    expect(within(items[1]!).getByText("Fait")).toBeInTheDocument();
    expect(within(items[2]!).getByText(/Réglage du serveur/)).toHaveTextContent("BACKUP_DIR");
    expect(within(items[3]!).queryByRole("button")).toBeNull();

    await user.click(within(items[2]!).getByRole("button", { name: /^Ouvrir « Sauvegardes »/ }));
    expect(onOpen).toHaveBeenCalledWith("backups");
    await user.click(screen.getByRole("button", { name: "Ouvrir « Boutique » pour : Mentions légales" }));
    expect(onOpen).toHaveBeenLastCalledWith("shop");
  });

  it("says when everything is ready", () => {
    expect(remainingText(0)).toBe("Tout est prêt pour l'ouverture.");
    expect(remainingText(1)).toBe("1 point à régler avant l'ouverture.");
  });
});
